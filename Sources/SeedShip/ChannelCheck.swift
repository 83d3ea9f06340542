import SeedKit
import Foundation
import SeedArchive
import SeedInstaller

/// Where `seedgen channel check` reads a channel's files: a folder, or a URL whose files the
/// command downloads (a channel served by a host or CDN is checked as apps receive it).
public protocol ChannelFiles {
    /// What the check reports the channel as (its folder or URL).
    var name: String { get }
    /// The file at `path` (relative to the channel) on disk, and when it was last modified (the
    /// file's time, or the server's `Last-Modified`); nil when the channel has no such file.
    /// - Throws: when it cannot be read or fetched (other than missing).
    func file(_ path: String) throws -> (path: String, modified: Date?)?
    /// Every file of the channel, when it can be listed (a folder); nil otherwise (a URL).
    func listing() -> [String]?
}

/// A channel folder on disk.
public struct ChannelFolder: ChannelFiles {
    public let folder: String
    public init(folder: String) { self.folder = folder }
    public var name: String { folder }

    public func file(_ path: String) throws -> (path: String, modified: Date?)? {
        let full = folder + "/" + path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: full),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (full, attributes[.modificationDate] as? Date)
    }

    public func listing() -> [String]? {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(name)
            }
        }
        return files.sorted()
    }
}

/// Checks a deployed channel (`seedgen channel check`): what it serves, and that apps can use
/// it. Every file the index names must exist with its size and SHA-256; a seed's gzip stamp must
/// be the entry's versions and sequence; the signature must be the key's (a stale one, older
/// than the index, is named as such); and each delta must apply, with the installer's own code,
/// to its `from` seed (`seeds/vN/FROM.sqlite.gz`, which the channel keeps) and give the
/// entry's seed.
public struct ChannelCheck {
    /// A problem an app would meet (a fault), or something an operator should know (a note).
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable { case fault, note }
        public var kind: Kind
        /// The channel file concerned.
        public var path: String
        public var message: String
        public var description: String { "\(kind.rawValue): \(path): \(message)" }
    }

    /// What the check found.
    public struct Report: Sendable {
        /// The index, when it could be read.
        public var index: ChannelIndex?
        /// Whether `index.json.sig` was checked against a key and is valid; nil when not checked.
        public var signatureValid: Bool?
        public var findings: [Finding] = []
        public var faults: [Finding] { findings.filter { $0.kind == .fault } }
    }

    public var files: any ChannelFiles
    public var publicKey: ChannelPublicKey?
    /// A signature older than the index by more than this is stale, not merely wrong:
    /// `seedgen publish` writes both within a second, and the guide uploads them together.
    public var staleAfter: TimeInterval = 60

    public init(files: any ChannelFiles, publicKey: ChannelPublicKey?) {
        self.files = files
        self.publicKey = publicKey
    }

    public func run() -> Report {
        var report = Report()
        func fault(_ path: String, _ message: String) {
            report.findings.append(Finding(kind: .fault, path: path, message: message))
        }
        func note(_ path: String, _ message: String) {
            report.findings.append(Finding(kind: .note, path: path, message: message))
        }

        let indexFile: (path: String, modified: Date?)
        do {
            guard let found = try files.file(ChannelIndex.fileName) else {
                fault(ChannelIndex.fileName, "missing: this is not a channel (seedgen publish writes index.json)")
                return report
            }
            indexFile = found
        } catch {
            fault(ChannelIndex.fileName, "cannot be read: \(error)")
            return report
        }
        guard let bytes = FileManager.default.contents(atPath: indexFile.path).map(Array.init) else {
            fault(ChannelIndex.fileName, "cannot be read")
            return report
        }
        let index: ChannelIndex
        do { index = try ChannelIndex.decode(bytes, source: ChannelIndex.fileName) } catch {
            fault(ChannelIndex.fileName, error.message)
            return report
        }
        report.index = index
        checkSignature(index: bytes, indexModified: indexFile.modified, report: &report)

        var named: Set<String> = [ChannelIndex.fileName, ChannelIndex.signatureFileName]
        for entry in index.seeds {
            named.insert(entry.path)
            named.insert(manifestPath(entry.path))
            guard let seed = check(entry.path, size: entry.size, sha256: entry.sha256, report: &report) else {
                continue
            }
            if let header = try? GzipHeader.read(path: seed) {
                let expected = SeedStamp(schemaVersion: entry.schemaVersion, seedVersion: entry.seedVersion)
                if let stamp = header.stamp, stamp != expected {
                    fault(entry.path, "the packed seed says \(stamp) but the index names \(expected)")
                }
                if let sequence = header.comment.flatMap(SeedStamp.sequence(inComment:)), sequence != entry.sequence {
                    fault(entry.path, "the packed seed says sequence \(sequence) but the index names \(entry.sequence)")
                }
            } else {
                fault(entry.path, "not a gzip file")
            }
            for delta in entry.deltas {
                named.insert(delta.path)
                guard let deltaFile = check(delta.path, size: delta.size, sha256: delta.sha256, report: &report) else {
                    continue
                }
                guard let from = fromSeedPath(delta.path) else {
                    note(delta.path, "its from seed cannot be found by name (not deltas/vN/FROM-TO.delta): not applied")
                    continue
                }
                named.insert(from)
                named.insert(manifestPath(from))
                checkApplies(deltaFile, delta: delta, from: from, entry: entry, report: &report)
            }
        }
        if let listing = files.listing() {
            let stray = listing.filter { !named.contains($0) }
            if !stray.isEmpty {
                note(
                    files.name,
                    """
                    \(stray.count) file(s) the index does not use (left by earlier publishes? sync with --delete): \
                    \(stray.prefix(10).joined(separator: ", "))\(stray.count > 10 ? ", …" : "")
                    """
                )
            }
        }
        return report
    }

    /// `index.json.sig` against the key; a mismatch older than the index is named stale.
    private func checkSignature(index: [UInt8], indexModified: Date?, report: inout Report) {
        let name = ChannelIndex.signatureFileName
        let signature: (path: String, modified: Date?)?
        do { signature = try files.file(name) } catch {
            report.findings.append(Finding(kind: .fault, path: name, message: "cannot be read: \(error)"))
            return
        }
        guard let publicKey else {
            let text =
                signature == nil
                ? "unsigned: apps given a public key refuse it" : "present; not checked (give --public-key)"
            report.findings.append(Finding(kind: .note, path: name, message: text))
            return
        }
        guard let signature, let bytes = FileManager.default.contents(atPath: signature.path) else {
            report.findings.append(
                Finding(
                    kind: .fault, path: name,
                    message: "missing: apps given the public key refuse the channel (unsigned-index)"))
            report.signatureValid = false
            return
        }
        let valid = publicKey.isValidSignature(Array(bytes), for: index)
        report.signatureValid = valid
        guard !valid else { return }
        if let signed = signature.modified, let indexed = indexModified, indexed.timeIntervalSince(signed) > staleAfter
        {
            let age = Self.duration(indexed.timeIntervalSince(signed))
            report.findings.append(
                Finding(
                    kind: .fault, path: name,
                    message:
                        """
                        stale: it is \(age) older than index.json and does not sign it. A cache (CDN) keeps \
                        index.json.sig longer than index.json, or the signature was not uploaded with the index: \
                        serve both with Cache-Control: no-cache and upload them together. Apps refuse the channel \
                        until then (bad-signature).
                        """
                ))
        } else {
            report.findings.append(
                Finding(
                    kind: .fault, path: name,
                    message:
                        """
                        not the public key's signature of index.json (changed after signing, or signed with \
                        another key): apps refuse the channel (bad-signature)
                        """
                ))
        }
    }

    /// The file's size and SHA-256 against the index; its local path when it exists.
    private func check(_ path: String, size: Int64, sha256: String, report: inout Report) -> String? {
        let found: (path: String, modified: Date?)?
        do { found = try files.file(path) } catch {
            report.findings.append(Finding(kind: .fault, path: path, message: "cannot be read: \(error)"))
            return nil
        }
        guard let found else {
            report.findings.append(
                Finding(kind: .fault, path: path, message: "missing: the index names it (\(size) bytes)"))
            return nil
        }
        let actual =
            ((try? FileManager.default.attributesOfItem(atPath: found.path))?[.size] as? NSNumber)?.int64Value ?? -1
        guard actual == size else {
            report.findings.append(
                Finding(
                    kind: .fault, path: path,
                    message: "\(actual) bytes, the index says \(size)\(actual < size ? " (truncated)" : "")"))
            return nil
        }
        guard let digest = try? FileDigest(path: found.path).sha256, digest == sha256 else {
            report.findings.append(
                Finding(
                    kind: .fault, path: path,
                    message: "SHA-256 is not the index's \(sha256): the file changed after publishing"))
            return nil
        }
        return found.path
    }

    /// Installs the `from` seed into a scratch folder, then the delta over it, with the
    /// installer apps use: it must patch it into the entry's seed.
    private func checkApplies(
        _ file: String, delta: ChannelIndex.Delta, from: String, entry: ChannelIndex.Entry, report: inout Report
    ) {
        let path = delta.path
        let fromFile: (path: String, modified: Date?)?
        do { fromFile = try files.file(from) } catch {
            report.findings.append(Finding(kind: .fault, path: from, message: "cannot be read: \(error)"))
            return
        }
        guard let fromFile else {
            report.findings.append(
                Finding(
                    kind: .fault, path: path,
                    message:
                        """
                        its from seed \(from) is missing: the delta cannot be checked, and the next publish cannot \
                        make deltas from it
                        """
                ))
            return
        }
        // The installer checks the seed against its manifest beside it (a URL's is fetched there).
        _ = try? files.file(manifestPath(from))
        let scratch = NSTemporaryDirectory() + "seedgen-channel-check-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let destination = scratch + "/seed.sqlite"
        do {
            let base = try SeedInstaller(
                source: fromFile.path, destination: destination, expectedSchemaVersion: entry.schemaVersion
            ).install()
            guard base.seedVersion == delta.from else {
                report.findings.append(
                    Finding(
                        kind: .fault, path: path,
                        message:
                            """
                            the index says it applies to seed version \(delta.from), but its from seed \(from) is \
                            seed version \(base.seedVersion)
                            """
                    ))
                return
            }
        } catch {
            report.findings.append(
                Finding(kind: .fault, path: from, message: "does not install: \(error.code): \(error.message)"))
            return
        }
        var installer = SeedInstaller(
            source: file, destination: destination, expectedSchemaVersion: entry.schemaVersion)
        installer.expectedSeedVersion = entry.seedVersion
        installer.expectedContentSHA256 = entry.contentSHA256
        do {
            let result = try installer.install()
            if result.status != .patched {
                report.findings.append(
                    Finding(
                        kind: .fault, path: path,
                        message: "applied to \(from) it gives \(result.status.rawValue), not a patched seed"))
            }
        } catch {
            report.findings.append(
                Finding(kind: .fault, path: path, message: "does not apply to \(from): \(error.code): \(error.message)")
            )
        }
    }

    /// `deltas/v2/41-42.delta` -> `seeds/v2/41.sqlite.gz`, as `seedgen publish` names them.
    func fromSeedPath(_ delta: String) -> String? {
        let parts = delta.split(separator: "/")
        guard parts.count == 3, parts[0] == "deltas", parts[2].hasSuffix(".delta"),
            let from = parts[2].dropLast(".delta".count).split(separator: "-").first, from.allSatisfy(\.isNumber)
        else { return nil }
        return "seeds/\(parts[1])/\(from).sqlite.gz"
    }

    private func manifestPath(_ seed: String) -> String { SeedManifest.path(forSeed: seed) }

    static func duration(_ seconds: TimeInterval) -> String {
        if seconds < 120 { return "\(Int(seconds.rounded())) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded())) min" }
        if seconds < 172_800 { return "\(Int((seconds / 3600).rounded())) h" }
        return "\(Int((seconds / 86400).rounded())) days"
    }
}
