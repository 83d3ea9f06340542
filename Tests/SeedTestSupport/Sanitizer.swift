import Foundation

/// Whether the tests run in a sanitizer build (`swift test --sanitize=address` or `thread`:
/// `make sanitize` runs both). The seedgen binary the tests start is then built the same way.
///
/// Such a build runs several times slower, and AddressSanitizer holds freed memory in a
/// quarantine (256 MB) and shadow memory beside the heap, so a time bound gets `slowdown`
/// and a peak-memory bound means nothing there.
public enum Sanitizer {
    /// AddressSanitizer is linked into the test process.
    public static let address = linked("__asan_init")
    /// ThreadSanitizer is linked into the test process.
    public static let thread = linked("__tsan_init")

    /// How many times longer a time bound is under a sanitizer: 1 without one.
    public static var slowdown: Int { thread ? 10 : address ? 3 : 1 }

    private static func linked(_ symbol: String) -> Bool {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, symbol) != nil
    }
}
