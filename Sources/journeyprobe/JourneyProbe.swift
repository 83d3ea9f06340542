import Foundation
import SeedRouter

// `journeyprobe SEED CASES`: opens SEED with SeedRouter, plans each case of CASES (lines
// `FROM<TAB>TO<TAB>YYYY-MM-DDTHH:MM`, the places as `seedgen journeys` takes them) one after
// the other on one thread, and prints the time to open the seed, the first journey's time
// after it, the median and p95 of the others, and the peak RSS (`make bench`, job journeys).

/// Monotonic seconds.
func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The process's peak resident set (VmHWM), in MB; 0 where /proc is not there.
func peakMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: journeyprobe SEED CASES\n".utf8))
    exit(2)
}
let cases = text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }.filter { $0.count == 3 }
let opened = seconds()
let planner = try JourneyPlanner(path: arguments[1])
let open = seconds() - opened
var times: [Double] = []
var found = 0
for fields in cases {
    let origin = Place(fields[0]), destination = Place(fields[1])
    let started = seconds()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try planner.timeZone(of: origin)
    let p = fields[2].split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    let at = calendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4]))!
    let journeys = try planner.journeys(from: origin, to: destination, departingAt: at)
    times.append(seconds() - started)
    if !journeys.isEmpty { found += 1 }
}
let first = times.first ?? 0
let rest = times.dropFirst().sorted()
let median = rest.isEmpty ? 0 : rest[rest.count / 2]
let p95 = rest.isEmpty ? 0 : rest[min(rest.count - 1, Int(Double(rest.count) * 0.95))]
print(
    String(
        format:
            """
            open %.3f s, first journey %.3f s (open + first %.3f s), next %d: median %.1f ms, p95 %.1f ms, max \
            %.1f ms; %d of %d found; peak RSS %.1f MB
            """,
        open, first, open + first, rest.count, median * 1000, p95 * 1000, (rest.last ?? 0) * 1000, found, cases.count,
        peakMB()))
