// An app imports SeedUpdater and nothing else: the installer (for the bundled seed at startup,
// `InstalledSeed`, `SeedInstallerError`) and the channel's key type come with it.
@_exported import SeedInstaller
@_exported import struct SeedArchive.ChannelPublicKey
@_exported import struct SeedArchive.ChannelError
