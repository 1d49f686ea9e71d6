import Foundation
import XCTest

/// `GLDevice` is the one caller of OpenGL in GLRenderer (issue 16: every call is made, and
/// counted, in one place). A source scan, like the repository's other text checks: no Swift file
/// of Sources/GLRenderer but GLDevice.swift and the EGL context's file calls a `gl…` function.
final class GLDeviceSeamTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GLRenderer").standardizedFileURL
    /// The files allowed to call GL: the device, and the EGL file that makes a context current.
    static let callers: Set<String> = ["GLDevice.swift", "EGLHeadlessContext.swift"]

    /// The names of the `gl[A-Z]…(` calls in Swift `source`, comments and one-line string
    /// literals left out (they name calls, they do not make them).
    static func glCalls(in source: String) -> [String] {
        let call = try! NSRegularExpression(pattern: "\\bgl[A-Z][A-Za-z0-9_]*(?=\\s*\\()")
        let string = try! NSRegularExpression(pattern: "\"(?:[^\"\\\\]|\\\\.)*\"")
        var names: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var code = String(line)
            code = string.stringByReplacingMatches(in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            for m in call.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                names.append(String(code[Range(m.range, in: code)!]))
            }
        }
        return names
    }

    func testOnlyTheDeviceCallsGL() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        XCTAssertTrue(files.contains("GLDevice.swift"), "scanned \(Self.sources.path): \(files)")
        for file in files.sorted() where !Self.callers.contains(file) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            XCTAssertEqual(Self.glCalls(in: text), [], "Sources/GLRenderer/\(file) calls GL; call it through GLDevice")
        }
        // The scan does see the device's own calls.
        let device = try String(contentsOf: Self.sources.appendingPathComponent("GLDevice.swift"), encoding: .utf8)
        XCTAssertTrue(Self.glCalls(in: device).contains("glDrawArraysInstanced"))
    }

    func testTheScanFindsCallsAndSkipsCommentsAndStrings() {
        let source = """
            glUseProgram(p)  // glBindTexture(t) in a comment
            let x = f(glGetError ())
            print("glFinish() in a string \\" glFlush()")
            /// `glDrawArrays*` calls.
            let name = glErrorNames[0]
            """
        XCTAssertEqual(Self.glCalls(in: source), ["glUseProgram", "glGetError"])
    }
}
