import SeedSystem
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET, streamed into memory (bounded) or appended to a file as it arrives, so that a
/// cut connection leaves on disk what was received (the next download resumes from there).
/// URLSession on Apple platforms, FoundationNetworking's on Linux; one session per transfer,
/// whose delegate this is. Cancelling the calling task cancels the request.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: every mutable property is touched only on the session's serial delegate
    // queue, and read by the caller only after the completion has resumed it.

    /// Where the body goes.
    enum Sink {
        /// Kept in memory, at most `limit` bytes (more is refused).
        case memory(limit: Int)
        /// Appended to the open file, which already holds `offset` bytes (sent as `Range`).
        case file(FileHandle, offset: Int64)
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        /// For a file: the body started over at byte 0 (the server ignored the range).
        var restarted: Bool
    }

    enum Failure: Error {
        case url(URLError)
        case other(String)
        case cancelled
        /// The update's deadline passed during the transfer.
        case deadline
        /// Fewer than `bytes` arrived in the last `seconds`: below the minimum rate.
        case stalled(bytes: Int64, seconds: Double)
    }

    /// What bounds a transfer besides the wait for data (`timeout`): the update's deadline, and
    /// a minimum rate over each window of `window`.
    struct Limits: Sendable {
        var deadline: ContinuousClock.Instant?
        /// Bytes per second; 0 checks nothing.
        var minimumRate: Int64 = 0
        var window: Duration = .seconds(10)
    }

    /// Every body byte received, across transfers and whatever their outcome: what a report
    /// says was downloaded.
    final class ByteCount: @unchecked Sendable {
        // @unchecked: `value` is behind `lock`.
        private let lock = Lock()
        private var count: Int64 = 0
        func add(_ bytes: Int64) { lock.lock(); count += bytes; lock.unlock() }
        var value: Int64 { lock.lock(); defer { lock.unlock() }; return count }
    }

    private let sink: Sink
    private let limits: Limits
    private let counter: ByteCount?
    private let onData: @Sendable (Int64) -> Void
    private var windowStart = ContinuousClock.now
    private var windowBytes: Int64 = 0
    private var response: HTTPURLResponse?
    private var body: [UInt8] = []
    private var received: Int64 = 0
    private var restarted = false
    private var failure: Failure?
    private var continuation: CheckedContinuation<Response, Error>?

    private init(sink: Sink, limits: Limits, counter: ByteCount?, onData: @escaping @Sendable (Int64) -> Void) {
        self.sink = sink
        self.limits = limits
        self.counter = counter
        self.onData = onData
    }

    /// GETs `url` with `headers`; for a file sink, `onData` gets the bytes on disk so far.
    /// `timeout` bounds each wait for data; `limits` the whole transfer (deadline, minimum
    /// rate); `counter` adds every body byte received, even of a transfer that then fails.
    static func get(
        _ url: URL, headers: [String: String], sink: Sink, timeout: TimeInterval, limits: Limits = Limits(),
        counter: ByteCount? = nil, onData: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws(Failure) -> Response {
        if let deadline = limits.deadline, deadline <= .now { throw .deadline }
        let transfer = HTTPTransfer(sink: sink, limits: limits, counter: counter, onData: onData)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if case .file(_, let offset) = sink, offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        }
        let task = session.dataTask(with: request)
        // The deadline and the minimum rate are checked on the delegate queue, four times a
        // second, by a Dispatch timer: not a task of the concurrency pool, which an app's (or a
        // test's) synchronous work may hold for seconds while the bytes trickle in.
        let watchdog = DispatchSource.makeTimerSource(queue: .global())
        watchdog.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        watchdog.setEventHandler { queue.addOperation { transfer.checkLimits(task) } }
        watchdog.resume()
        defer { watchdog.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let isCancelled = Task.isCancelled
                    queue.addOperation {
                        transfer.continuation = continuation
                        if isCancelled {
                            transfer.failure = .cancelled
                            task.cancel()
                        }
                        task.resume()
                    }
                }
            } onCancel: {
                queue.addOperation { transfer.failure = transfer.failure ?? .cancelled }
                task.cancel()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .other("\(error)")
        }
    }

    /// Cuts the transfer when the deadline passed or fewer bytes than the minimum rate arrived
    /// in the last window. Runs on the delegate queue.
    private func checkLimits(_ task: URLSessionTask) {
        guard failure == nil, continuation != nil else { return }
        let now = ContinuousClock.now
        if let deadline = limits.deadline, now >= deadline {
            failure = .deadline
            return task.cancel()
        }
        guard limits.minimumRate > 0, now - windowStart >= limits.window else { return }
        let seconds =
            Double((now - windowStart).components.seconds) + Double((now - windowStart).components.attoseconds) / 1e18
        let bytes = received - windowBytes
        if Double(bytes) < Double(limits.minimumRate) * seconds {
            failure = .stalled(bytes: bytes, seconds: seconds)
            return task.cancel()
        }
        windowStart = now
        windowBytes = received
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            failure = .other("not an HTTP response")
            return completionHandler(.cancel)
        }
        self.response = http
        guard case .file(let handle, let offset) = sink else { return completionHandler(.allow) }
        switch http.statusCode {
        case 200 where offset > 0:
            // The server ignored the range: start the file over.
            do {
                try handle.truncate(atOffset: 0)
                restarted = true
            } catch {
                failure = .other("cannot truncate the partial download: \(error.localizedDescription)")
                return completionHandler(.cancel)
            }
            completionHandler(.allow)
        case 200:
            completionHandler(.allow)
        case 206:
            let range = http.value(forHTTPHeaderField: "Content-Range") ?? ""
            guard range.hasPrefix("bytes \(offset)-") else {
                failure = .other("the server sent the range \(range.debugDescription), not from byte \(offset)")
                return completionHandler(.cancel)
            }
            completionHandler(.allow)
        default:
            completionHandler(.cancel) // the status is reported; the body is not wanted
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        received += Int64(data.count)
        counter?.add(Int64(data.count))
        switch sink {
        case .memory(let limit):
            guard body.count + data.count <= limit else {
                failure = .other("the response has more than \(limit) bytes")
                return dataTask.cancel()
            }
            body += data
        case .file(let handle, let offset):
            do { try handle.write(contentsOf: data) } catch {
                failure = .other("cannot write the download: \(error.localizedDescription)")
                return dataTask.cancel()
            }
            onData((restarted ? 0 : offset) + received)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let continuation else { return }
        self.continuation = nil
        if let failure {
            continuation.resume(throwing: failure)
        } else if let response,
            error == nil || (error as? URLError)?.code == .cancelled && !(200..<300).contains(response.statusCode)
        {
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            continuation.resume(
                returning: Response(status: response.statusCode, headers: headers, body: body, restarted: restarted))
        } else if let error = error as? URLError {
            continuation.resume(throwing: error.code == .cancelled ? Failure.cancelled : Failure.url(error))
        } else {
            continuation.resume(throwing: Failure.other(error.map { "\($0)" } ?? "no response"))
        }
    }
}
