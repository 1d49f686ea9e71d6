@testable import GLRenderer
import XCTest

/// `GLDevice`'s calls outside frames: building programs, with the driver's log on failure.
final class GLDeviceTests: XCTestCase {
    private let vertex = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n"
    private let fragment = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"

    func testProgramsBuildAndFailuresNameTheStage() throws {
        let context = try EGLHeadlessContext()
        var device = GLDevice()
        let p = try device.makeProgram(vertex: vertex, fragment: fragment, label: "plain")
        XCTAssertNotEqual(p, 0)
        device.deleteProgram(p)
        // A compile error: the fragment shader's stage, with the compiler's message.
        XCTAssertThrowsError(try device.makeProgram(vertex: vertex, fragment: "#version 330 core\nvoid main() { x = 1; }\n",
                                                    label: "broken")) { error in
            guard case let GLRendererError.shader(stage, log) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(stage, "broken fragment shader")
            XCTAssertNotEqual(log, "(no log)")
        }
        // A link error: the stages disagree on a varying's type.
        let writes = "#version 330 core\nout vec3 v;\nvoid main() { v = vec3(1.0); gl_Position = vec4(0.0); }\n"
        let reads = "#version 330 core\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n"
        XCTAssertThrowsError(try device.makeProgram(vertex: writes, fragment: reads, label: "unlinked")) { error in
            guard case let GLRendererError.shader(stage, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(stage, "unlinked program link")
        }
        XCTAssertNoThrow(try device.check("after failed builds"))
        _ = context
    }
}
