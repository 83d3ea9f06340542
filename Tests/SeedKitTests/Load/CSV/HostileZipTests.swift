import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

/// Reads every entry of the zip at `path` to its end: the bytes of each file by name, or the
/// first error.
private func readEntries(_ path: String) -> Result<[String: [UInt8]], InputError> {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { buffer.deallocate() }
    do throws(InputError) {
        var files: [String: [UInt8]] = [:]
        for file in try InputSet(paths: [path]).files {
            let source = try file.open()
            var bytes: [UInt8] = []
            while case let count = try source.read(into: buffer), count > 0 { bytes += buffer[0..<count] }
            files[file.name] = bytes
        }
        return .success(files)
    } catch {
        return .failure(error)
    }
}

/// Reads every entry of the zip at `path` to its end; returns the first error's text, or nil.
private func readAll(_ path: String) -> String? {
    guard case .failure(let error) = readEntries(path) else { return nil }
    return "\(error)"
}

/// Each archive here once crashed the reader (a Swift trap) or could have; each must end in
/// an `InputError` naming the archive.
@Suite("Hostile zip archives end in a clear error, never a trap")
struct HostileZipTests {
    let folder = TemporaryFolder()
    let good = ZipBytes.Entry(name: "stops.txt", data: Array("stop_id,stop_name\nS1,One\n".utf8))

    func check(_ zip: ZipBytes, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = folder.write("feed.zip", bytes: zip.bytes())
        let message = readAll(path)
        #expect(message?.contains(path) == true, "names the archive: \(message ?? "no error")", sourceLocation: sourceLocation)
        #expect(message?.contains(expected) == true, "\(message ?? "no error")", sourceLocation: sourceLocation)
    }

    @Test("a ZIP64 locator pointing past 2^63")
    func locatorOffset() {
        var zip = ZipBytes([good])
        zip.zip64 = true
        zip.zip64RecordOffset = 1 << 63 + 5
        check(zip, "broken ZIP64 directory")
    }

    @Test("a ZIP64 directory whose offset + size overflows 64 bits")
    func directoryOverflow() {
        var zip = ZipBytes([good])
        zip.zip64 = true
        zip.zip64Directory = (offset: UInt64.max - 10, size: 100, count: 1)
        check(zip, "truncated zip archive")
    }

    @Test("a ZIP64 directory claiming more entries than fit")
    func entryCount() {
        var zip = ZipBytes([good])
        zip.zip64 = true
        zip.zip64Directory = (offset: 0, size: 0, count: UInt64.max)
        check(zip, "entries cannot fit")
    }

    @Test("a ZIP64 local-header offset at or past 2^63")
    func headerOffset() {
        var entry = good
        entry.saturate.offset = true
        entry.zip64Extra = [1 << 63]
        check(ZipBytes([entry]), "its header would be at byte 9223372036854775808")
    }

    @Test("an entry of size 0xFFFFFFFF whose ZIP64 extra field is too short")
    func shortExtra() {
        var entry = good
        entry.saturate = (true, true, false)
        entry.zip64Extra = [25]   // the size, but not the compressed size
        check(ZipBytes([entry]), "broken ZIP64 extra field")
    }

    @Test("a ZIP64 size near 2^64")
    func hugeSize() {
        var entry = good
        entry.saturate.size = true
        entry.zip64Extra = [UInt64.max - 1]
        check(ZipBytes([entry]), "cannot come from 25 compressed bytes")
    }

    @Test("an entry whose data would end past the archive")
    func dataPastEnd() {
        var entry = good
        entry.saturate = (true, true, false)
        entry.zip64Extra = [150, 150]
        check(ZipBytes([entry]), "past the archive")
    }

    @Test("a file too short to be a zip")
    func tooShort() throws {
        let path = folder.write("feed.zip", bytes: [0x50, 0x4b, 5, 6])
        #expect(readAll(path)?.contains("too short") == true)
    }

    @Test("every truncation of a valid archive ends in an error, not a trap")
    func truncations() {
        let bytes = ZipBytes([good, ZipBytes.Entry(name: "trips.txt", data: Array("trip_id\nT1\n".utf8))]).bytes()
        for length in 0..<bytes.count {
            let path = folder.write("cut.zip", bytes: Array(bytes[0..<length]))
            #expect(readAll(path) != nil, "\(length) bytes")
        }
    }

    @Test("every single-byte change of a ZIP64 archive is refused naming the archive, or reads no byte that was not written")
    func mutations() {
        var entry = good
        entry.saturate = (true, true, true)
        entry.zip64Extra = [25, 25, 0]
        var zip = ZipBytes([entry])
        zip.zip64 = true
        let bytes = zip.bytes()
        var refused = 0, readBack = 0
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] where bytes[index] != value {
                var changed = bytes
                changed[index] = value
                let path = folder.write("m.zip", bytes: changed)
                switch readEntries(path) {
                case .failure(let error):
                    refused += 1
                    #expect(error.path == path || error.path.hasPrefix(path + ":"), "byte \(index) set to \(value): \(error)")
                case .success(let files):
                    // The CRC covers the data, so what is read is the entry's bytes as written (or
                    // nothing, when the directory's count of entries became 0).
                    readBack += 1
                    #expect(files.count <= 1 && files.values.allSatisfy { $0 == good.data }, "byte \(index) set to \(value): read \(files)")
                }
            }
        }
        // Both outcomes occur: changes to fields the reader uses are refused, others are harmless.
        #expect(refused > 0 && readBack > 0, "\(refused) refused, \(readBack) read")
    }

    @Test("a bzip2 entry is refused with the method's name and how to repack")
    func unsupportedMethod() throws {
        var entry = good
        entry.method = 12
        let path = folder.write("feed.zip", bytes: ZipBytes([entry]).bytes())
        let message = try #require(readAll(path))
        #expect(message.contains("feed.zip:stops.txt"))
        #expect(message.contains("bzip2 (method 12)"))
        #expect(message.contains("zip -r -Z deflate"))
    }

    @Test("entries under one sub-folder and __MACOSX/ entries keep working")
    func subFolderAndMacOS() throws {
        var entries: [ZipBytes.Entry] = []
        for (name, text) in MinimalFeed.files {
            entries.append(ZipBytes.Entry(name: "gtfs/" + name, data: Array(text.utf8)))
            entries.append(ZipBytes.Entry(name: "__MACOSX/gtfs/._" + name, data: [0, 5, 22, 7, 0xFF]))
        }
        entries.append(ZipBytes.Entry(name: "gtfs/", data: []))
        let path = folder.write("feed.zip", bytes: ZipBytes(entries).bytes())
        let summary = try SeedBuilder.build([path], to: folder.file("seed.sqlite"))
        #expect(summary.inputs.map(\.name).sorted() == MinimalFeed.files.keys.sorted())
    }
}
