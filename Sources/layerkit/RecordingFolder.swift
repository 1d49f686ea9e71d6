import ArgumentParser
import Foundation
import LayerKitCore
import LayerKitScene

/// The output folder of `layerkit record`. A recording is written into a hidden staging folder
/// inside it and moved into place only when every file is written, so a failed recording (a
/// full disk, a backend error, an interrupted process) never leaves frames or a truncated
/// animated PNG where a finished recording's would be, and frames of an earlier recording are
/// never mixed with new ones: the folder must be empty, or `--overwrite` first removes the
/// names a recording writes (and only those). A slice (`--frames`) shares its folder with the
/// other slices, which may be running: it checks and removes only its own frames' names.
final class RecordingFolder {
    /// The folder as the user named it.
    let path: String
    /// The staging folder, `path/.layerkit-record-…`, which this run created.
    let staging: String
    /// Whether this run created `path`.
    private let created: Bool

    /// The prefix of staging folders' names.
    static let stagingPrefix = ".layerkit-record-"

    /// Whether `name` is one that `record` writes into the output folder.
    static func isRecordingFile(_ name: String) -> Bool {
        if name == "animation.png" || name == "animation.mp4" { return true }
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst("frame-".count).dropLast(".png".count)
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `name` is one that a recording writes into its staging folder.
    private static func isStagedFile(_ name: String) -> Bool {
        isRecordingFile(name) || (name.hasPrefix(".layerkit-") && name.hasSuffix(".tmp"))
    }

    /// Makes `path` (its folder exists: `checkOutputDirectory`) or checks that it is empty; with `overwrite`, removes
    /// the recording files in it first (after checking that each is a file `record` could have
    /// written, so a refusal removes nothing). For a slice, `sliceNames` are the only names
    /// checked and removed. Then creates the staging folder.
    init(path: String, overwrite: Bool, sliceNames: [String]? = nil) throws {
        self.path = path
        func refuse(_ why: String) -> CLIError { CLIError.badInput("cannot write -o \(path): \(why)") }
        created = mkdir(path, 0o777) == 0
        if !created {
            guard errno == EEXIST else { throw refuse(String(cString: strerror(errno))) }
            if let sliceNames {
                try Self.clear(sliceNames, in: path, overwrite: overwrite, refuse)
            } else {
                try Self.clear(path, overwrite: overwrite, refuse)
            }
        }
        var template = Array((path as NSString).appendingPathComponent(Self.stagingPrefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            let reason = String(cString: strerror(errno))
            if created { rmdir(path) }
            throw refuse("cannot create a folder in it: \(reason)")
        }
        staging = String(cString: made)
    }

    /// Refuses a non-empty `folder` unless `overwrite`; with it, removes the recording files and
    /// staging folders there, once all of them are known to be what `record` writes.
    private static func clear(_ folder: String, overwrite: Bool, _ refuse: (String) -> CLIError) throws {
        let manager = FileManager.default
        let entries: [String]
        do { entries = try manager.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw refuse("cannot list it: \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        guard !entries.isEmpty else { return }
        guard overwrite else {
            throw refuse("it is not empty (\(counted(entries.count, "entry", plural: "entries")), such as \(entries[0])); "
                         + "give --overwrite to replace a recording there")
        }
        var files: [String] = [], folders: [String] = []
        for name in entries {
            let entry = (folder as NSString).appendingPathComponent(name)
            if isRecordingFile(name) {
                guard isRegularFile(entry) else { throw refuse("\(name) is not a file that record writes; remove it yourself") }
                files.append(entry)
            } else if name.hasPrefix(stagingPrefix) {
                // What an interrupted recording left: removed when it holds only its own files.
                let inside = (try? manager.contentsOfDirectory(atPath: entry)) ?? []
                for item in inside {
                    let itemPath = (entry as NSString).appendingPathComponent(item)
                    guard isStagedFile(item), isRegularFile(itemPath) else {
                        throw refuse("\(name) holds \(item), which record does not write; remove it yourself")
                    }
                    files.append(itemPath)
                }
                folders.append(entry)
            }
        }
        for file in files where unlink(file) != 0 {
            throw refuse("cannot remove \(file): \(String(cString: strerror(errno)))")
        }
        for staged in folders where rmdir(staged) != 0 {
            throw refuse("cannot remove \(staged): \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses `names` in `folder` unless `overwrite`; with it, removes them, once all are files.
    private static func clear(_ names: [String], in folder: String, overwrite: Bool, _ refuse: (String) -> CLIError) throws {
        let present = names.filter { access((folder as NSString).appendingPathComponent($0), F_OK) == 0 }
        guard let first = present.first else { return }
        guard overwrite else {
            throw refuse("\(counted(present.count, "frame")) of this slice \(present.count == 1 ? "is" : "are") there already, such as \(first); "
                         + "give --overwrite to replace them")
        }
        let paths = present.map { (folder as NSString).appendingPathComponent($0) }
        for (name, path) in zip(present, paths) where !isRegularFile(path) {
            throw refuse("\(name) is not a file that record writes; remove it yourself")
        }
        for path in paths where unlink(path) != 0 {
            throw refuse("cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Where `name` is written while recording.
    func staged(_ name: String) -> String { (staging as NSString).appendingPathComponent(name) }

    /// Moves the staged `names` into the output folder and removes the staging folder. When a
    /// move fails, the files already moved are removed again (the recording fails whole).
    func publish(_ names: [String]) throws {
        var moved: [String] = []
        for name in names {
            let target = (path as NSString).appendingPathComponent(name)
            guard rename(staged(name), target) == 0 else {
                let reason = String(cString: strerror(errno))
                for file in moved { unlink(file) }
                throw CLIError.badInput("cannot write -o \(path): cannot move \(name) into it: \(reason)")
            }
            moved.append(target)
        }
        rmdir(staging)
    }

    /// Removes everything this run wrote: the staging folder and its files, and the output
    /// folder when this run made it.
    func abandon() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? [] { unlink(staged(name)) }
        rmdir(staging)
        if created { rmdir(path) }
    }
}

/// A byte count as `--max-bytes` takes it (`RecordingPlan.parseByteCount`).
struct ByteCount: ExpressibleByArgument {
    let value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let value = RecordingPlan.parseByteCount(argument) else { return nil }
        self.value = value
    }

    /// The value as it would be typed: "16G".
    var defaultValueDescription: String {
        for (suffix, unit) in [("T", 0x1p40), ("G", 0x1p30), ("M", 0x1p20), ("K", 0x1p10)]
        where value >= unit && value.truncatingRemainder(dividingBy: unit) == 0 {
            return "\(Int64(value / unit))\(suffix)"
        }
        return "\(Int64(value))"
    }
}
