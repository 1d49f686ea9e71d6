import LayerKit

/// How far an image may differ from its reference, on the two axes web-platform-tests and
/// Gecko reftests budget: the largest difference of any channel of any pixel (0…255), and the
/// number of pixels that differ at all. Both ranges are inclusive, and both observed values
/// must fall in them.
///
/// A single number is exact, as in web-platform-tests: `Fuzzy(maxChannelDifference: 2,
/// pixelCount: 0...20)` passes an image whose largest difference is exactly 2 on at most 20
/// pixels, and fails one whose largest difference is 1, which says the budget is looser than
/// the rendering needs. An image equal to its reference passes whenever either range starts at
/// 0; a budget with both lower bounds above 0 reports an equal image, so that a fix shows.
public struct Fuzzy: Equatable, Sendable, CustomStringConvertible {
    /// The allowed largest channel difference, 0…255.
    public var maxChannelDifference: ClosedRange<Int>
    /// The allowed number of pixels that differ in any channel.
    public var pixelCount: ClosedRange<Int>

    /// A budget of a largest channel difference and a count of differing pixels, each an
    /// inclusive range (`1...2`) or an exact number (`2`).
    public init(maxChannelDifference: some FuzzyRangeExpression, pixelCount: some FuzzyRangeExpression) {
        self.maxChannelDifference = maxChannelDifference.fuzzyRange
        self.pixelCount = pixelCount.fuzzyRange
    }

    /// No difference at all: every channel of every pixel equal.
    public static let exact = Fuzzy(maxChannelDifference: 0, pixelCount: 0)

    /// The budget of `.image(backend: .gl)` when none is given, for an image of `pixels` pixels:
    /// any pixel may differ from the CPU reference by up to 2/255 in a channel, none by more.
    /// That is where GL's rasterization and blending round differently from the CPU's: on
    /// Mesa's llvmpipe, LayerKit's rendering tests see a largest difference of 0 to 2 in all
    /// but a few scenes. Those few (3D perspective, whose edge pixels GL covers differently)
    /// differ by up to 255 on a handful of edge pixels (up to 0.006 % of them): give such a tree
    /// its own budget, e.g. `Fuzzy(maxChannelDifference: 0...255, pixelCount: 0...20)`.
    public static func gl(pixels: Int) -> Fuzzy {
        Fuzzy(maxChannelDifference: 0...2, pixelCount: 0...max(0, pixels))
    }

    /// `maxChannelDifference=0-2;pixelCount=0-20`, web-platform-tests' spelling.
    public var description: String {
        func spell(_ r: ClosedRange<Int>) -> String { r.lowerBound == r.upperBound ? "\(r.lowerBound)" : "\(r.lowerBound)-\(r.upperBound)" }
        return "maxChannelDifference=\(spell(maxChannelDifference));pixelCount=\(spell(pixelCount))"
    }

    /// Whether an image with these observed figures is within the budget.
    func allows(_ d: ImageDifference) -> Bool {
        if d.differingPixels == 0 { return maxChannelDifference.lowerBound == 0 || pixelCount.lowerBound == 0 }
        return maxChannelDifference.contains(d.maxChannelDifference) && pixelCount.contains(d.differingPixels)
    }
}

/// A bound of a `Fuzzy` budget: an exact `Int` or an inclusive `ClosedRange<Int>`.
public protocol FuzzyRangeExpression {
    /// The bound as an inclusive range.
    var fuzzyRange: ClosedRange<Int> { get }
}

extension Int: FuzzyRangeExpression {
    /// Exactly this number.
    public var fuzzyRange: ClosedRange<Int> { self...self }
}

extension ClosedRange: FuzzyRangeExpression where Bound == Int {
    /// The range itself.
    public var fuzzyRange: ClosedRange<Int> { self }
}

/// What a comparison of two same-sized images observed: the figures a failure reports.
struct ImageDifference {
    /// The largest difference of any channel of any pixel.
    var maxChannelDifference = 0
    /// The first pixel (in rows from the top) with that largest difference.
    var worstPixel: (x: Int, y: Int)?
    /// How many pixels differ in any channel.
    var differingPixels = 0
    /// The first differing pixel, in rows from the top.
    var firstPixel: (x: Int, y: Int)?
    /// The smallest rectangle holding every differing pixel: x, y, width, height.
    var boundingBox: (x: Int, y: Int, width: Int, height: Int)?
    /// How many pixels differ by more than the budget's largest allowed channel difference.
    var pixelsOverBudget = 0

    /// Two equal images.
    init() {}

    /// Compares `actual` with `reference` (the same size), counting as over budget the pixels
    /// whose largest channel difference exceeds `limit`; `perPixel` receives each pixel's.
    init(_ reference: Bitmap, _ actual: Bitmap, limit: Int, perPixel: inout [UInt8]) {
        precondition(reference.width == actual.width && reference.height == actual.height)
        let w = reference.width
        perPixel = [UInt8](repeating: 0, count: w * reference.height)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        reference.pixels.withUnsafeBufferPointer { r in
            actual.pixels.withUnsafeBufferPointer { a in
                for i in 0..<(w * reference.height) {
                    var m = 0
                    for c in 0..<4 { m = max(m, abs(Int(r[i * 4 + c]) - Int(a[i * 4 + c]))) }
                    guard m > 0 else { continue }
                    perPixel[i] = UInt8(m)
                    let x = i % w, y = i / w
                    differingPixels += 1
                    if m > limit { pixelsOverBudget += 1 }
                    if firstPixel == nil { firstPixel = (x, y) }
                    if m > maxChannelDifference { (maxChannelDifference, worstPixel) = (m, (x, y)) }
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
        }
        if maxX >= 0 { boundingBox = (minX, minY, maxX - minX + 1, maxY - minY + 1) }
    }

    /// The observed figures in words, for failure messages.
    var summary: String {
        guard differingPixels > 0, let first = firstPixel, let worst = worstPixel, let box = boundingBox else {
            return "the images are equal"
        }
        return "largest channel difference \(maxChannelDifference) (first at x=\(worst.x) y=\(worst.y)); "
            + (differingPixels == 1 ? "1 pixel differs" : "\(differingPixels) pixels differ") + ", \(pixelsOverBudget) by more than the budget allows; "
            + "first at x=\(first.x) y=\(first.y), all within x=\(box.x) y=\(box.y) width=\(box.width) height=\(box.height) (pixels, from the top left)"
    }
}
