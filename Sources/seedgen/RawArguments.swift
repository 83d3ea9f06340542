import Foundation
import SeedKit

/// The command line as bytes. `CommandLine.arguments` turns bytes that are not UTF-8 into
/// U+FFFD, so a path named with byte 0xFF would be read as, or written to, another name:
/// such an argument is refused, showing its real bytes.
enum RawArguments {
    /// Throws when an argument is not valid UTF-8, naming it as `\xHH` escapes.
    static func requireUTF8() throws {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
            if FileName.utf8(bytes) == nil {
                throw RawArgumentError(shown: FileName.display(bytes))
            }
        }
    }
}

/// An argument that is not UTF-8.
struct RawArgumentError: Error, CustomStringConvertible {
    var shown: String
    var description: String { "error: \(shown): \(FileName.notUTF8)" }
}
