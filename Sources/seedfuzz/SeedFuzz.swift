import Foundation
import SeedKit

// Two builds of one file:
// - built normally, `seedfuzz TARGET PATH...` replays inputs (files, or folders of them)
//   through a fuzz target: the committed corpus (`Tests/Fuzz/TARGET/`) is a regression test;
// - built with `-sanitize=fuzzer -D FUZZING` (`make fuzz`), libFuzzer calls
//   `LLVMFuzzerTestOneInput` with the target named by `SEEDFUZZ_TARGET`.

/// A scratch folder for the targets that read files, removed at exit.
private let scratch: String = {
    let path = NSTemporaryDirectory() + "seedfuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "seedfuzz-\(getpid())") }
    return path
}()

#if FUZZING
private let target: String = {
    guard let name = ProcessInfo.processInfo.environment["SEEDFUZZ_TARGET"], FuzzEntry.targets.contains(name) else {
        fatalError("set SEEDFUZZ_TARGET to one of \(FuzzEntry.targets.joined(separator: ", "))")
    }
    return name
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzEntry.run(target, bytes, scratch: scratch)
    return 0
}
#else
@main
enum SeedFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let target = arguments.first, FuzzEntry.targets.contains(target), arguments.count > 1 else {
            FileHandle.standardError.write(
                Data("usage: seedfuzz {\(FuzzEntry.targets.joined(separator: "|"))} FILE-OR-FOLDER...\n".utf8))
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("seedfuzz: \(path): no such file or folder\n".utf8))
                exit(1)
            }
            let files =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                FuzzEntry.run(target, Array(data), scratch: scratch)
                count += 1
            }
        }
        print("seedfuzz \(target): \(count) inputs ran without a crash")
    }
}
#endif
