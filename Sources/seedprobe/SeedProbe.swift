import SeedInstaller
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `seedprobe [--warm-runtime] SOURCE DESTINATION [SCHEMA-VERSION]`: calls
// `SeedInstaller.install()` once and prints `<microseconds> <result>`, the time of that call
// alone, measured inside the process (process start and exit are not counted). `make bench`
// runs it in many fresh processes to time the first up-to-date check an app makes at startup.
// No Foundation: the probe should load nothing the installer itself does not.
//
// With --warm-runtime, the process first does what any Swift app has done by the time it calls
// the installer: it frees a string on the heap, grows an array of bytes and drops an optional
// pair of strings. The first of each sets up the Swift runtime's type metadata caches, about
// 80,000 instructions (callgrind) that are not the installer's; without the flag they are
// counted in the call, as a program whose first Swift code is the installer pays them.

/// Monotonic time in nanoseconds.
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Writes a line to standard error.
func complain(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// What any Swift program has done before it reaches the installer (see the top of this file).
@inline(never)
func warmRuntime(_ seed: String) -> Int {
    var text = String(repeating: "x", count: 64)
    text += seed
    var bytes = Array(text.utf8)
    bytes.append(0)
    let pair: (String, String)? = bytes.count > 1 << 20 ? nil : (text, seed)
    return bytes.count + (pair?.0.utf8.count ?? 0)
}

var arguments = CommandLine.arguments
let warm = arguments.count > 1 && arguments[1] == "--warm-runtime"
if warm { arguments.remove(at: 1) }
guard arguments.count == 3 || arguments.count == 4 else {
    complain("usage: seedprobe [--warm-runtime] SOURCE DESTINATION [SCHEMA-VERSION]")
    exit(2)
}
if warm, warmRuntime(arguments[1]) == 0 { exit(3) }
let installer = SeedInstaller(
    source: arguments[1], destination: arguments[2],
    expectedSchemaVersion: arguments.count == 4 ? Int(arguments[3]) : nil)
let start = now()
let outcome: Result<SeedInstallResult, SeedInstallerError> = Result { () throws(SeedInstallerError) in
    try installer.install()
}
let elapsed = now() - start
switch outcome {
case .success(let result):
    print("\(elapsed / 1000) \(result)")
case .failure(let error):
    complain("seedprobe: \(error)")
    exit(1)
}
