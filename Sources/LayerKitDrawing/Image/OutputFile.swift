// Output files written whole or not at all: every file LayerKit's programs write (PNGs, the
// animated PNG, traces) goes through `OutputFile`, so a write that fails (a full disk, a file
// size limit, an I/O error) never leaves a truncated file, never damages the file it was to
// replace, and never removes anything the writer did not create itself.
//
// A regular file (new, or replaced) is written to a temporary file beside it, in the same
// directory so that the final rename(2) is atomic, and renamed over it only once every byte is
// written and the file is closed; on failure only that temporary file is removed. An existing
// target that is not a regular file (a device such as /dev/null or /dev/stdout, a FIFO) is
// written in place: it cannot be replaced by renaming, and it is never removed, whatever
// happens. A directory is refused.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an output file could not be written: its path and the reason in words.
package struct OutputFileError: Error, CustomStringConvertible, Equatable {
    /// The path as the caller named it.
    package let path: String
    /// What went wrong ("No space left on device", "it is a directory", …).
    package let reason: String

    package var description: String { "cannot write \(path): \(reason)" }
}

/// One output file being written; see the top of this file. Bytes go out as `append` is called
/// (nothing is held in memory), and the target changes only at `commit()`. An `OutputFile`
/// dropped without `commit()` removes its temporary file.
package final class OutputFile {
    /// The path as the caller named it.
    package let path: String
    /// The temporary file renamed over `destination` at commit; nil when written in place.
    private let temporaryPath: String?
    /// The file the rename replaces: `path`, or the file a symbolic link there points to
    /// (the link stays a link).
    private let destination: String
    private var descriptor: Int32
    private var finished = false

    /// Opens `path` for writing: a temporary file beside a regular (or new) file, the target
    /// itself when it is a device or FIFO (opening a FIFO waits for its reader).
    package init(path: String) throws(OutputFileError) {
        self.path = path
        switch try Self.target(of: path) {
        case .inPlace:
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutputFileError(path: path, reason: Self.systemReason()) }
            (temporaryPath, destination) = (nil, path)
        case let .replacing(file, existing):
            (descriptor, temporaryPath) = try Self.createTemporaryFile(beside: file, reporting: path)
            destination = file
            if let existing {
                // The replacement keeps the replaced file's owner (when this process may give
                // it) and permissions, as writing into the file would have.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            }
        }
    }

    deinit { if !finished { discard() } }

    /// Appends `bytes`.
    package func append(_ bytes: [UInt8]) throws(OutputFileError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failure { throw OutputFileError(path: path, reason: String(cString: strerror(failure))) }
    }

    /// Closes the file and, when it was written beside its target, renames it over the target.
    /// On failure the temporary file is removed and the target is as it was.
    package func commit() throws(OutputFileError) {
        precondition(!finished, "an OutputFile is committed or discarded once")
        finished = true
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        guard let temporaryPath else {
            if closed != 0 { throw OutputFileError(path: path, reason: String(cString: strerror(closeError))) }
            return
        }
        guard closed == 0 else {
            unlink(temporaryPath)
            throw OutputFileError(path: path, reason: String(cString: strerror(closeError)))
        }
        guard rename(temporaryPath, destination) == 0 else {
            let reason = Self.systemReason()
            unlink(temporaryPath)
            throw OutputFileError(path: path, reason: reason)
        }
    }

    /// Gives up: closes the file and removes the temporary file (never the target).
    package func discard() {
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
    }

    /// Refuses a path that cannot be written, before any work is done for it: an empty path, a
    /// directory, a file without write permission, a folder that does not exist, is not a
    /// directory or takes no new file (tried by creating a temporary file there and removing it
    /// at once, so read-only file systems, /proc and /sys are found too, whoever runs this).
    /// Nothing is left behind and no existing file is opened.
    package static func check(_ path: String) throws(OutputFileError) {
        switch try target(of: path) {
        case .inPlace:
            if access(path, W_OK) != 0 { throw OutputFileError(path: path, reason: systemReason()) }
        case let .replacing(file, existing):
            if existing != nil, access(file, W_OK) != 0 { throw OutputFileError(path: path, reason: systemReason()) }
            let (descriptor, temporary) = try createTemporaryFile(beside: file, reporting: path)
            close(descriptor)
            unlink(temporary)
        }
    }

    /// How a path is written.
    private enum Target {
        /// An existing device or FIFO, written directly.
        case inPlace
        /// A regular file, `existing` when one is there already, replaced by renaming.
        case replacing(file: String, existing: stat?)
    }

    private static func target(of path: String) throws(OutputFileError) -> Target {
        func refuse(_ why: String) -> OutputFileError { OutputFileError(path: path, reason: why) }
        guard !path.isEmpty else { throw refuse("the path is empty") }
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                throw refuse("it is a directory")
            case S_IFREG:
                // Through a symbolic link: replace the file it names, not the link.
                guard let resolved = realpath(path, nil) else { throw refuse(systemReason()) }
                defer { free(resolved) }
                return .replacing(file: String(cString: resolved), existing: status)
            default:
                return .inPlace
            }
        }
        let missing = errno
        var link = stat()
        if missing == ENOENT, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            // A link to a file not written yet: the file is made where the link points, and the
            // link stays (a loop of links fails `stat` with ELOOP instead, refused below).
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let n = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
            guard n > 0 else { throw refuse(systemReason()) }
            let linked = String(decoding: buffer[..<n], as: UTF8.self)
            return try target(of: linked.hasPrefix("/") ? linked : directory(of: path) + "/" + linked)
        }
        // A missing file, or a missing or non-directory folder: the folder says which.
        guard missing == ENOENT || missing == ENOTDIR else { throw refuse(String(cString: strerror(missing))) }
        let folder = directory(of: path)
        guard stat(folder, &status) == 0 else {
            throw refuse(errno == ENOENT ? "no such directory \(folder)" : "\(folder): \(systemReason())")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw refuse("\(folder) is not a directory") }
        return .replacing(file: path, existing: nil)
    }

    /// Creates a new, uniquely named file in `file`'s directory (mode 0666 less the umask, as
    /// any new file), returning its descriptor and path.
    private static func createTemporaryFile(beside file: String, reporting path: String) throws(OutputFileError) -> (Int32, String) {
        let folder = directory(of: file)
        for _ in 0..<100 {
            let name = ".layerkit-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            let candidate = folder == "/" ? "/" + name : folder + "/" + name
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, candidate) }
            if errno != EEXIST {
                throw OutputFileError(path: path, reason: "cannot create a file in \(folder): \(systemReason())")
            }
        }
        throw OutputFileError(path: path, reason: "cannot find a free temporary name in \(folder)")
    }

    /// The folder part of `path` ("." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}

/// Writes `bytes` to `path` as one `OutputFile`: all of them, or (on failure) no change at all.
package func writeOutputFile(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
    let file = try OutputFile(path: path)
    try file.append(bytes)
    try file.commit()
}
