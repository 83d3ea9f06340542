// An app imports SeedUpdater and nothing else: the installer (for the bundled seed at startup,
// `InstalledSeed`, `SeedInstallerError`) comes with it. The channel's formats (SeedArchive) do
// not: the updater's own types (`SeedUpdater.PublicKey`, `SeedUpdaterError`) stand for them.
@_exported import SeedInstaller
