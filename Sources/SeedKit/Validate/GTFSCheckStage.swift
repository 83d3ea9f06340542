/// The stage after loading, for GTFS feeds only (the transit schema, `GTFSChecks.applies`): the
/// checks of MobilityData's validator that the schema cannot declare, run over the loaded
/// tables (`GTFSChecks`). It runs before the stable ids and before anything is derived: it reads
/// the rows as loaded and changes nothing, so the seed is the same bytes whatever it finds.
/// Data errors it finds fail the build here, as the loaders' do.
struct GTFSCheckStage: BuildStage {
    func run(_ state: BuildState) throws {
        guard GTFSChecks.applies(to: state.schema) else { return }
        state.progress?.phase("checking GTFS")
        try GTFSChecks(schema: state.schema, inputs: state.inputs, connection: state.connection, issues: state.issues,
                       options: state.options).run()
        state.timer.mark("GTFS checks")
        if state.issues.hasErrors { throw BuildError.invalidInput(state.issues) }
    }
}
