import ArgumentParser

/// `--json`, shared by the commands whose output scripts read (inspect, verify, diff, pack,
/// install, update): each command's help says what its JSON holds.
struct JSONOutput: ParsableArguments {
    @Flag(help: "Print JSON for scripts (what it holds is above) instead of text.")
    var json = false
}
