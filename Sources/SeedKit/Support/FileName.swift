import Foundation

/// File names are bytes: a name that is not UTF-8 cannot become a Swift `String` without
/// losing bytes (they turn into U+FFFD), so seedgen refuses such names with a message that
/// shows the real bytes (`\xFF`), instead of reading or writing a different file.
public enum FileName {
    /// The name as text when it is valid UTF-8, nil otherwise.
    public static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The name for messages: valid UTF-8 as is, each other byte as `\xHH`.
    public static func display(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let text = utf8(bytes) { return text }
        var result = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here, else one escaped byte.
            var length = 0
            for candidate in stride(from: min(4, bytes.count - index), through: 1, by: -1)
            where String(validating: UnsafeBufferPointer(rebasing: bytes[index..<(index + candidate)]), as: UTF8.self)
                != nil
            {
                length = candidate
                break
            }
            if length > 0 {
                result += String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
                index += length
            } else {
                result += String(format: "\\x%02X", bytes[index])
                index += 1
            }
        }
        return result
    }

    /// The message for a name that is not UTF-8.
    public static let notUTF8 =
        """
        the name is not valid UTF-8 (shown with \\xHH for its other bytes); seedgen reads and writes UTF-8 file \
        names only: rename it
        """
}
