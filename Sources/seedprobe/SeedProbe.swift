import SeedInstaller
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `seedprobe SOURCE DESTINATION [SCHEMA-VERSION]`: calls `SeedInstaller.install()` once and
// prints `<microseconds> <result>`, the time of that call alone, measured inside the process
// (process start and exit are not counted). `make bench` runs it in many fresh processes to
// time the first up-to-date check an app makes at startup. No Foundation: the probe should
// load nothing the installer itself does not.

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

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    complain("usage: seedprobe SOURCE DESTINATION [SCHEMA-VERSION]")
    exit(2)
}
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
