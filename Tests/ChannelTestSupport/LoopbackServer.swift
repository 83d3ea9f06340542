import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (a port the kernel picks) for the updater's fault
/// tests: it serves a folder (GET, `Range`, `ETag`/`If-None-Match`) and misbehaves on request
/// for one path: a status, a cut after some bytes, a stall, other bytes, a slow body.
/// `Last-Modified` is the file's modification time, as static hosts send it.
/// One thread per connection, `Connection: close`; it stops when released or on ``stop()``.
public final class LoopbackServer: @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.

    /// How to answer a path instead of serving its file.
    public enum Fault: Sendable {
        /// This status, empty body.
        case status(Int)
        /// The file's headers (full length), then only `after` bytes of its body, then the
        /// connection closes: a cut mid-body. `times` answers are cut, then the file is served.
        case cut(after: Int, times: Int)
        /// Headers and body sent only after `seconds` (longer than the client's timeout), unless
        /// the client hangs up first (``secondsUntilHangUp(_:)`` tells when).
        case stall(seconds: Double)
        /// The file's length, with every byte inverted: wrong bytes.
        case wrongBytes
        /// The body in chunks of `chunk` bytes, `delay` seconds apart (for killing a client mid-download).
        case slow(chunk: Int, delay: Double)
    }

    /// A request as received.
    public struct Request: Sendable {
        public var path: String
        public var headers: [String: String]
    }

    public let root: String
    public private(set) var port: UInt16 = 0
    private let listener: Int32
    private let lock = NSLock()
    private var faults: [String: Fault] = [:]
    private var log: [Request] = []
    private var sent: [String: Int] = [:]
    private var hangUps: [String: Double] = [:]
    private var stopped = false

    /// Starts serving `root` on 127.0.0.1.
    public init(root: String) throws {
        self.root = root
        #if canImport(Glibc)
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [weak self, listener] in Self.acceptLoop(listener: listener, server: { self }) }
        thread.start()
    }

    deinit { stop() }

    /// The channel's URL: `http://127.0.0.1:PORT/`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Closes the listening socket; connections in progress finish.
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    /// Answers `path` (relative, e.g. `deltas/v3/1-2.delta`) with `fault` until cleared (nil).
    public func setFault(_ fault: Fault?, for path: String) {
        lock.lock()
        faults[path] = fault
        lock.unlock()
    }

    /// The requests received so far.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    /// The body bytes sent for `path` so far.
    public func bytesSent(_ path: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return sent[path] ?? 0
    }

    /// Seconds from a stalled request of `path` to its client closing the connection (nil: not
    /// yet, or no stall). Measured on the server's threads: a busy test process does not lengthen it.
    public func secondsUntilHangUp(_ path: String) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        return hangUps[path]
    }

    /// Forgets the requests and bytes counted so far.
    public func resetCounts() {
        lock.lock()
        log = []
        sent = [:]
        lock.unlock()
    }

    private static func acceptLoop(listener: Int32, server: @escaping () -> LoopbackServer?) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard let server = server() else {
                close(connection)
                return
            }
            let thread = Thread { server.handle(connection) }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        lock.lock()
        log.append(request)
        let fault = faults[request.path]
        if case .cut(let after, let times)? = fault {
            faults[request.path] = times > 1 ? .cut(after: after, times: times - 1) : nil
        }
        lock.unlock()

        let file = root + "/" + request.path
        let isSafe = !request.path.split(separator: "/").contains("..")
        let body = isSafe ? FileManager.default.contents(atPath: file).map(Array.init) : nil
        switch fault {
        case .status(let status)?:
            return respond(connection, status: status, headers: [:], body: [], path: request.path)
        case .stall(let seconds)?:
            if let hungUp = Self.waitForHangUp(connection, seconds: seconds) {
                lock.lock()
                hangUps[request.path] = hungUp
                lock.unlock()
                return
            }
        default:
            break
        }
        guard var body else { return respond(connection, status: 404, headers: [:], body: Array("not found\n".utf8), path: request.path) }
        if case .wrongBytes? = fault { body = body.map { ~$0 } }
        let etag = "\"\(body.count)-\(Self.fnv(body))\""
        if request.headers["if-none-match"] == etag {
            return respond(connection, status: 304, headers: ["ETag": etag], body: [], path: request.path)
        }
        var status = 200
        var headers = ["ETag": etag, "Accept-Ranges": "bytes"]
        if let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date {
            headers["Last-Modified"] = Self.httpDate(modified)
        }
        if let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
           let start = Int(range.dropFirst("bytes=".count).dropLast()) {
            guard start < body.count else {
                return respond(connection, status: 416, headers: ["Content-Range": "bytes */\(body.count)"], body: [], path: request.path)
            }
            headers["Content-Range"] = "bytes \(start)-\(body.count - 1)/\(body.count)"
            body = Array(body[start...])
            status = 206
        }
        switch fault {
        case .cut(let after, _)?:
            respond(connection, status: status, headers: headers, body: body, path: request.path, sendOnly: after)
        case .slow(let chunk, let delay)?:
            respond(connection, status: status, headers: headers, body: body, path: request.path, chunk: chunk, delay: delay)
        default:
            respond(connection, status: status, headers: headers, body: body, path: request.path)
        }
    }

    /// Waits up to `seconds`; the seconds until the client closed the connection, if it did.
    private static func waitForHangUp(_ connection: Int32, seconds: Double) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            var watched = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            if recv(connection, &byte, 1, Int32(MSG_PEEK)) <= 0 { return Date().timeIntervalSince(start) }
            Thread.sleep(forTimeInterval: 0.05)  // more bytes of a request: not a hang-up
        }
        return nil
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 64 << 10 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if let end = bytes.indices.dropFirst(3).first(where: { bytes[$0 - 3] == 13 && bytes[$0 - 2] == 10 && bytes[$0 - 1] == 13 && bytes[$0] == 10 }) {
                let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ")
                guard parts.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                var path = String(parts[1])
                if path.hasPrefix("/") { path.removeFirst() }
                return Request(path: path.removingPercentEncoding ?? path, headers: headers)
            }
        }
        return nil
    }

    private func respond(_ connection: Int32, status: Int, headers: [String: String], body: [UInt8], path: String,
                         sendOnly: Int? = nil, chunk: Int? = nil, delay: Double = 0) {
        var head = "HTTP/1.1 \(status) \(HTTPURLResponseText.reason(status))\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard write(connection, Array(head.utf8)) else { return }
        let limit = min(sendOnly ?? body.count, body.count)
        var offset = 0
        let step = chunk ?? 64 << 10
        while offset < limit {
            let end = min(offset + step, limit)
            guard write(connection, Array(body[offset..<end])) else { return }
            lock.lock()
            sent[path, default: 0] += end - offset
            lock.unlock()
            offset = end
            if delay > 0 && offset < limit { Thread.sleep(forTimeInterval: delay) }
        }
    }

    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, as HTTP writes dates.
    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static func fnv(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }
}

enum HTTPURLResponseText {
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
