import SeedSystem

extension SystemCallError {
    /// The installer's error for this failure: `message` says what the installer was doing;
    /// the code is `.diskFull` when the disk is full, `.fileSystem` otherwise.
    func installerError(_ message: String) -> SeedInstallerError {
        SeedInstallerError(
            code: isOutOfSpace ? .diskFull : .fileSystem, message: message, path: path, systemError: text, errno: errno,
            cause: self)
    }
}
