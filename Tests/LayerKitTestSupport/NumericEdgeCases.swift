import Foundation
import LayerKitCore

/// A layer tree at a numeric edge (a singular transform, a zero size, coordinates of 1e9, a
/// plane crossing the eye) with what any backend must draw for it: colours at a few pixels,
/// and for the eye-crossing tree the rule that no part is drawn mirrored. Both backends run the
/// same table (CPURendererTests and GLRendererTests), so they are held to the same promise.
public struct NumericEdgeCase {
    /// What the case is called in failure messages.
    public let name: String
    /// The tree, on a 200 x 100 point canvas at scale 1 with a transparent background.
    public let root: CALayer
    /// Pixels and the premultiplied RGBA each must have (within 2 per channel).
    public let probes: [(x: Int, y: Int, rgba: [UInt8])]
    /// Every row must show red only left of blue: the mirror image of a part behind the eye
    /// (w < 0) would put blue on the left.
    public let redBeforeBlueInEveryRow: Bool
    /// Whether the GL backend must match the reference within the usual budget; not for
    /// magnitudes beyond `Float`, which the GPU cannot hold, where only the probes count.
    public var matchesReferenceClosely = true

    public static let width = 200.0, height = 100.0
    static let clear: [UInt8] = [0, 0, 0, 0], red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255], yellow: [UInt8] = [255, 255, 0, 255]
    static let redColor = rgb(255, 0, 0), greenColor = rgb(0, 255, 0), blueColor = rgb(0, 0, 255)

    /// Every case.
    public static func all() -> [NumericEdgeCase] {
        [singularTransforms(), zeroSizes(), hugeCoordinates(), nonFiniteProperties(), crossingTheEye(angle: 1.05),
         crossingTheEye(angle: -1.05)] + [1e30, -1e30, 1e300, 1e308, -.greatestFiniteMagnitude].map(extremeMagnitudes)
    }

    /// What is wrong with `bitmap` as a rendering of this case, one line per problem.
    public func problems(in bitmap: Bitmap) -> [String] {
        var found: [String] = []
        for p in probes {
            let got = bitmap.rgba(p.x, p.y)
            if zip(got, p.rgba).contains(where: { abs(Int($0) - Int($1)) > 2 }) {
                found.append("\(name): pixel (\(p.x), \(p.y)) is \(got), expected \(p.rgba)")
            }
        }
        guard redBeforeBlueInEveryRow else { return found }
        var redSeen = false, blueSeen = false
        for y in 0..<bitmap.height {
            var lastRed = -1, firstBlue = Int.max
            for x in 0..<bitmap.width {
                let (r, _, b, a) = bitmap[x, y]
                guard a > 200 else { continue }
                if r > 200 && b < 50 {
                    lastRed = x
                    redSeen = true
                }
                if b > 200 && r < 50 {
                    firstBlue = min(firstBlue, x)
                    blueSeen = true
                }
            }
            if lastRed > firstBlue { found.append("\(name): row \(y) has blue at x = \(firstBlue), left of red at x = \(lastRed)") }
        }
        if !redSeen || !blueSeen { found.append("\(name): expected both halves in view (red: \(redSeen), blue: \(blueSeen))") }
        return found
    }

    private static func layer(_ frame: CGRect, _ color: CGColor, transform: CATransform3D = .identity) -> CALayer {
        let l = solidLayer(frame, color)
        l.transform = transform
        return l
    }

    private static func canvasRoot() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        return root
    }

    /// Scale 0 in x, y or both, an all-zero matrix and a plane seen edge-on draw nothing; a z
    /// scale of 0 only flattens, so that layer draws as usual.
    static func singularTransforms() -> NumericEdgeCase {
        let root = canvasRoot()
        var edgeOn = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        edgeOn.m34 = -1 / 300
        root.sublayers = [
            layer(CGRect(x: 10, y: 10, width: 30, height: 30), redColor, transform: CATransform3DMakeScale(0, 0, 1)),
            layer(CGRect(x: 50, y: 10, width: 30, height: 30), redColor, transform: CATransform3DMakeScale(0, 1, 1)),
            layer(CGRect(x: 90, y: 10, width: 30, height: 30), blueColor, transform: CATransform3DMakeScale(1, 1, 0)),
            layer(CGRect(x: 130, y: 10, width: 30, height: 30), redColor, transform: CATransform3D([CGFloat](repeating: 0, count: 16))),
            layer(CGRect(x: 10, y: 50, width: 30, height: 30), redColor, transform: edgeOn),
        ]
        let parent = layer(CGRect(x: 50, y: 50, width: 30, height: 30), rgb(255, 255, 0))
        parent.sublayerTransform = CATransform3DMakeScale(0, 0, 0)
        parent.addSublayer(layer(CGRect(x: 0, y: 0, width: 30, height: 30), redColor))
        root.addSublayer(parent)
        return NumericEdgeCase(name: "singular transforms", root: root,
                               probes: [(25, 25, clear), (65, 25, clear), (105, 25, blue), (145, 25, clear),
                                        (25, 65, clear), (65, 65, yellow)],
                               redBeforeBlueInEveryRow: false)
    }

    /// Zero-size layers with every decoration draw nothing themselves; their sublayers still
    /// draw, unless `masksToBounds` clips them to nothing.
    static func zeroSizes() -> NumericEdgeCase {
        let root = canvasRoot()
        func decorated(_ frame: CGRect) -> CALayer {
            let l = layer(frame, redColor)
            l.borderWidth = 4
            l.borderColor = redColor
            l.cornerRadius = 6
            return l
        }
        let point = decorated(CGRect(x: 60, y: 50, width: 0, height: 0))
        point.addSublayer(layer(CGRect(x: -50, y: -40, width: 30, height: 30), greenColor))
        let clipping = decorated(CGRect(x: 150, y: 50, width: 0, height: 0))
        clipping.masksToBounds = true
        clipping.addSublayer(layer(CGRect(x: -20, y: -20, width: 40, height: 40), redColor))
        let shadowed = decorated(CGRect(x: 100, y: 80, width: 0, height: 10))
        shadowed.shadowOpacity = 1
        shadowed.opacity = 0.5
        root.sublayers = [point, clipping, shadowed, decorated(CGRect(x: 120, y: 80, width: 10, height: 0))]
        return NumericEdgeCase(name: "zero-size layers", root: root,
                               probes: [(25, 25, green), (60, 50, clear), (150, 50, clear), (140, 40, clear),
                                        (100, 85, clear), (125, 80, clear)],
                               redBeforeBlueInEveryRow: false)
    }

    /// Coordinates of 1e9 points: a layer reaching in from far left, a layer far away, bounds
    /// origins of 1e9 that cancel, and a 2e9-point layer with 1e8-point rounded corners behind.
    static func hugeCoordinates() -> NumericEdgeCase {
        let root = canvasRoot()
        let huge = layer(CGRect(x: -1e9, y: -1e9, width: 2e9, height: 2e9), blueColor)
        huge.cornerRadius = 1e8
        let shifted = CALayer()
        shifted.frame = CGRect(x: 0, y: 40, width: 200, height: 60)
        shifted.bounds.origin = CGPoint(x: 1e9, y: 1e9)
        shifted.addSublayer(layer(CGRect(x: 1e9 + 10, y: 1e9 + 10, width: 20, height: 20), greenColor))
        root.sublayers = [huge, layer(CGRect(x: -1e9, y: 0, width: 1e9 + 50, height: 20), redColor),
                          layer(CGRect(x: 1e9, y: 1e9, width: 100, height: 100), redColor), shifted]
        return NumericEdgeCase(name: "coordinates of 1e9", root: root,
                               probes: [(25, 10, red), (75, 10, blue), (20, 60, green), (150, 80, blue), (199, 99, blue)],
                               redBeforeBlueInEveryRow: false)
    }

    /// NaN and infinity written straight into `properties`, past the setters: the renderers skip
    /// what they cannot place and draw the rest.
    static func nonFiniteProperties() -> NumericEdgeCase {
        let root = canvasRoot()
        let nanPosition = layer(CGRect(x: 10, y: 10, width: 30, height: 30), redColor)
        nanPosition.properties.position.x = .nan
        let infiniteTransform = layer(CGRect(x: 50, y: 10, width: 30, height: 30), redColor)
        infiniteTransform.properties.transform.m11 = .infinity
        let nanBounds = layer(CGRect(x: 90, y: 10, width: 30, height: 30), redColor)
        nanBounds.properties.bounds.size.height = .nan
        let nanRadius = layer(CGRect(x: 130, y: 10, width: 30, height: 30), redColor)
        nanRadius.properties.cornerRadius = .nan
        nanRadius.properties.borderWidth = .infinity
        nanRadius.properties.shadowRadius = .nan
        nanRadius.properties.shadowOpacity = 1
        let fine = layer(CGRect(x: 10, y: 50, width: 30, height: 30), greenColor)
        root.sublayers = [nanPosition, infiniteTransform, nanBounds, nanRadius, fine]
        return NumericEdgeCase(name: "non-finite properties", root: root,
                               probes: [(25, 25, clear), (65, 25, clear), (105, 25, clear), (25, 65, green)],
                               redBeforeBlueInEveryRow: false)
    }

    /// Layers with one number each as large as `v` (finite, so the setters keep them), in the
    /// places that become pixel counts, texel indices and blur widths, under a witness layer
    /// that must still draw: found by rendering every field at such sizes, which overflowed
    /// `Int` conversions and underflowed a pass scale before they were clamped; at 1e308 a blur
    /// margin (3 x shadowRadius) overflowed to infinity.
    static func extremeMagnitudes(_ v: CGFloat) -> NumericEdgeCase {
        let root = canvasRoot()
        let image = solidImage(width: 4, height: 4, rgb(255, 0, 255))
        func extreme(_ edit: (CALayer) -> Void) -> CALayer {
            let l = layer(CGRect(x: 20, y: 20, width: 30, height: 30), redColor)
            l.contents = image
            edit(l)
            return l
        }
        root.sublayers = [
            extreme { $0.position = CGPoint(x: v, y: v) },
            extreme { $0.bounds = CGRect(x: 0, y: 0, width: abs(v), height: abs(v)) },
            extreme { $0.transform = CATransform3DMakeScale(v, v, 1) },
            extreme { $0.transform = CATransform3DMakeTranslation(v, -v, v) },
            extreme {
                $0.sublayerTransform = CATransform3DMakeScale(v, v, v)
                $0.addSublayer(layer(CGRect(x: 1, y: 1, width: 5, height: 5), blueColor))
            },
            extreme { $0.contentsRect = CGRect(x: 0, y: 0, width: v, height: v) },
            extreme {
                $0.shadowOpacity = 1
                $0.shadowOffset = CGSize(width: v, height: v)
            },
            extreme {
                $0.shadowOpacity = 1
                $0.shadowRadius = abs(v)
            },
            extreme {
                // The offset and the sublayer it casts from, both at v: their sum overflows.
                $0.shadowOpacity = 1
                $0.shadowRadius = abs(v)
                $0.shadowOffset = CGSize(width: v, height: -v)
                $0.addSublayer(layer(CGRect(x: v, y: -v, width: 5, height: 5), blueColor))
            },
            extreme {
                $0.borderColor = blueColor
                $0.borderWidth = abs(v)
                $0.cornerRadius = abs(v)
                $0.masksToBounds = true
                $0.addSublayer(layer(CGRect(x: 1, y: 1, width: 5, height: 5), blueColor))
            },
            extreme {
                $0.anchorPointZ = v
                $0.transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
            },
            extreme {
                $0.opacity = 0.5
                $0.bounds = CGRect(x: 0, y: 0, width: abs(v), height: 10)
                $0.addSublayer(CALayer())
            },
            layer(CGRect(x: 2, y: 2, width: 10, height: 10), greenColor),
        ]
        var edge = NumericEdgeCase(name: "magnitudes of \(v)", root: root, probes: [(6, 6, green)], redBeforeBlueInEveryRow: false)
        edge.matchesReferenceClosely = false
        return edge
    }

    /// A 400-point-wide layer, red on its left half and blue on its right, turned about y under
    /// a perspective of 100 points, so that one end passes behind the eye.
    static func crossingTheEye(angle: CGFloat) -> NumericEdgeCase {
        let root = canvasRoot()
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 100
        root.sublayerTransform = perspective
        let plane = CALayer()
        plane.bounds = CGRect(x: 0, y: 0, width: 400, height: 40)
        plane.position = CGPoint(x: width / 2, y: height / 2)
        plane.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
        plane.sublayers = [layer(CGRect(x: 0, y: 0, width: 200, height: 40), redColor),
                           layer(CGRect(x: 200, y: 0, width: 200, height: 40), blueColor)]
        root.addSublayer(plane)
        return NumericEdgeCase(name: "crossing w = 0 (\(angle) rad)", root: root, probes: [], redBeforeBlueInEveryRow: true)
    }
}
