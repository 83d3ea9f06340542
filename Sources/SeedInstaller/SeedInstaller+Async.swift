import Dispatch

extension SeedInstaller {
    /// ``install()`` on a background thread, for callers on the main actor or in a task: the
    /// first install decompresses and checks the whole seed (a second or more for 100 MB),
    /// which must not block the UI or a cooperative thread.
    ///
    /// ```swift
    /// let result = try await SeedInstaller(source: shipped, destination: installed).installInBackground()
    /// ```
    /// - Parameter qos: the quality of service of the thread that installs.
    /// - Returns: what happened (see ``install()``).
    /// - Throws: ``SeedInstallerError``; the installed seed is unchanged.
    public func installInBackground(
        qos: DispatchQoS.QoSClass = .userInitiated
    ) async throws(SeedInstallerError) -> SeedInstallResult {
        let result: Result<SeedInstallResult, SeedInstallerError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: qos).async {
                continuation.resume(returning: Result { () throws(SeedInstallerError) in try self.install() })
            }
        }
        return try result.get()
    }
}
