/// Progress of an install that writes a seed (``SeedInstaller/progress``): the phase, and while
/// a full seed is decompressed, its bytes written of its size.
public struct SeedInstallProgress: Sendable, Equatable {
    /// What the installer is doing.
    public enum Phase: String, Sendable {
        /// Writing the new seed beside the destination: decompressing it, or patching a copy
        /// of the installed seed with a delta (which includes proving the result's content).
        case apply
        /// Checking the new seed (header, versions, checksum or content digest, stamp) before
        /// it is renamed into place.
        case verify
    }

    /// What the installer is doing.
    public var phase: Phase
    /// Bytes of the new seed written so far (0 while patching).
    public var bytesDone: Int64
    /// The new seed's size, when known before it is written (a manifest, a delta's header).
    public var bytesTotal: Int64?

    /// A progress report, e.g. for an app's tests.
    /// - Parameters:
    ///   - phase: what the installer is doing.
    ///   - bytesDone: bytes of the new seed written so far.
    ///   - bytesTotal: the new seed's size, when known.
    public init(phase: Phase, bytesDone: Int64, bytesTotal: Int64?) {
        self.phase = phase
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}
