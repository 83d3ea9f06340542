import Foundation
import SeedKit

/// Ctrl-C or SIGTERM during a build removes the scratch files before exiting.
enum Interrupts {
    static func removeScratchFilesOnSignal() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in
                TemporaryFiles.removeAll()
                _exit(128 + number)
            }
        }
    }
}
