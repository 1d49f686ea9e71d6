import Foundation

// What animations compute with: a layer's animated state, the values of its animatable key paths
// and their kinds. `AnimatableKeyPaths.swift` says how each key path reads and writes them.

/// A layer's drawable state as animations read and write it: its properties and its typed
/// style.
package struct AnimatedLayerState {
    package var properties: LayerProperties
    package var kind: LayerSnapshot.Kind
    /// The values stored by key-value coding (`CALayer.customValues`), with the animated ones
    /// replaced (boxed as `value(forKey:)` returns them); empty unless an animation of the
    /// layer changes such a key.
    var custom: [String: Any] = [:]
}

extension AnimatedLayerState {
    /// A state with no key-value coded values (in an extension, to keep the memberwise one).
    package init(properties: LayerProperties, kind: LayerSnapshot.Kind) {
        self.properties = properties
        self.kind = kind
    }
}

/// A value of an animatable key path, in the form interpolation works on.
package enum AnimatedValue: Equatable {
    /// One number, kept out of an array: most animated properties are single numbers, and
    /// their values are made every frame.
    case number(Double)
    /// Points, sizes, rects, colours (straight sRGB RGBA) and lists, component by component;
    /// never a single number (that is `.number`, so that equal values compare equal).
    case vector([Double])
    /// A transform, interpolated by decomposition; boxed, so that the other values, copied
    /// many times a frame, are not sixteen numbers wide.
    indirect case transform(CATransform3D)
    /// A boolean, switched at the end.
    case bool(Bool)
    /// A path, interpolated point by point when both have the same elements.
    case path(CGPath?)
    /// An image, switched halfway (`contents`).
    case image(CGImage?)
    /// A string or a string constant's raw value (`name`, `contentsGravity`, …): properties that
    /// key-value coding reaches but no animation changes.
    case string(String?)
}

extension AnimatedValue {
    /// The value of numbers `x`: `.number` for one, else `.vector`.
    static func components(_ x: [Double]) -> AnimatedValue { x.count == 1 ? .number(x[0]) : .vector(x) }

    /// The numbers of a `.number` or `.vector` value.
    package var components: [Double]? {
        switch self {
        case let .number(x): return [x]
        case let .vector(x): return x
        case .transform, .bool, .path, .image, .string: return nil
        }
    }
}

/// The type of an animatable key path's values.
package enum AnimatedValueKind: Equatable {
    case number, point, size, rect, color, transform, bool, path, image, string
    /// A list of colours (`colors`), four numbers each, element by element.
    case colors
    /// A list of numbers (`locations`), element by element.
    case numbers

    /// How many numbers a vector value of this kind has (0 for lists and non-vectors).
    var count: Int {
        switch self {
        case .number: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform, .bool, .path, .image, .string, .colors, .numbers: return 0
        }
    }

    /// The value of a layer that lacks the property (a typed property of another layer type).
    var absentValue: AnimatedValue {
        switch self {
        case .color: return .color(nil)
        case .path: return .path(nil)
        case .image: return .image(nil)
        case .string: return .string(nil)
        case .transform: return .transform(.identity)
        case .bool: return .bool(false)
        default: return .components(Array(repeating: 0, count: count))
        }
    }

    /// `value` (an animation's `fromValue` and friends, typed as Apple types them) in this
    /// kind's form, or `nil` when it is not a value of this kind.
    /// Numbers may be any Swift number type or `NSNumber`; points, sizes, rects and transforms
    /// the struct or its `NSValue` box (`NSValue(cgPoint:)` …); lists `[Any]` of such elements.
    /// An `Optional` holding nothing inside `Any` (an implicit animation's `fromValue` for a
    /// layer with no path) is "none" (see `noneValue`).
    package func convert(_ value: Any?) -> AnimatedValue? {
        if let converted = convertSome(value) { return converted }
        // Looked at only when the casts failed: reflection costs more than all of them.
        guard let value, case .optional? = Mirror(reflecting: value).displayStyle, Mirror(reflecting: value).children.isEmpty else {
            return nil
        }
        return noneValue
    }

    private func convertSome(_ value: Any?) -> AnimatedValue? {
        switch (self, value) {
        case (.number, _): return numericValue(value).map { .number($0) }
        case (.point, let v as CGPoint): return .vector([Double(v.x), Double(v.y)])
        case (.size, let v as CGSize): return .vector([Double(v.width), Double(v.height)])
        case (.rect, let v as CGRect): return .rect(v)
        case (.color, let v as CGColor): return .vector(v.components.map(Double.init))
        case (.transform, let v as CATransform3D): return .transform(v)
        case (.bool, let v as Bool): return .bool(v)
        case (.path, let v as CGPath): return .path(v)
        case (.image, let v as CGImage): return .image(v)
        case (.string, let v as String): return .string(v)
        case (.colors, let v as [Any]):
            let colors = v.compactMap { $0 as? CGColor }
            return colors.count == v.count ? .components(colors.flatMap { $0.components.map(Double.init) }) : nil
        case (.numbers, let v as [Any]):
            let numbers = v.compactMap(numericValue)
            return numbers.count == v.count ? .components(numbers) : nil
        default: return nil
        }
    }

    /// The kind of values `value` is, as `convert` takes them; `nil` for a value no animation
    /// can interpolate or switch. A custom key's animations take the kind of their values.
    static func of(_ value: Any?) -> AnimatedValueKind? {
        switch value {
        case nil: return nil
        case is Bool: return .bool
        case is CGColor: return .color
        case is CGPath: return .path
        case is CGImage: return .image
        case let box as NSValue where !(box is NSNumber):
            switch box.unboxed {
            case is CGPoint: return .point
            case is CGSize: return .size
            case is CGRect: return .rect
            case is CATransform3D: return .transform
            default: return nil
            }
        case is CGPoint: return .point
        case is CGSize: return .size
        case is CGRect: return .rect
        case is CATransform3D: return .transform
        case let list as [Any]:
            if !list.isEmpty, list.allSatisfy({ $0 is CGColor }) { return .colors }
            return list.allSatisfy { numericValue($0) != nil } ? .numbers : nil
        default: return numericValue(value) == nil ? nil : .number
        }
    }

    /// `value` boxed as Core Animation's key-value coding returns values of this kind to Swift:
    /// numbers and booleans as `NSNumber`, points, sizes, rects and transforms as `NSValue`,
    /// colours as `CGColor`, lists as `[CGColor]` and `[NSNumber]`, paths and images as
    /// themselves (`nil` for none).
    func boxed(_ value: AnimatedValue) -> Any? {
        switch value {
        case let .transform(m): return NSValue(caTransform3D: m)
        case let .bool(b): return NSNumber(value: b)
        case let .path(p): return p
        case let .image(i): return i
        case let .string(x): return x
        case .number, .vector:
            switch object(value) {
            case let x as CGFloat: return NSNumber(value: Double(x))
            case let x as CGPoint: return NSValue(cgPoint: x)
            case let x as CGSize: return NSValue(cgSize: x)
            case let x as CGRect: return NSValue(cgRect: x)
            case let x as [CGFloat]: return x.map { NSNumber(value: Double($0)) }
            case let x: return x
            }
        }
    }

    /// `a` and `b` mixed at fraction `p`. Values that cannot be mixed (lists of different
    /// lengths, paths of different elements, images, transforms that do not decompose) switch
    /// halfway; booleans switch at the end.
    static func interpolate(_ a: AnimatedValue, _ b: AnimatedValue, _ p: Double) -> AnimatedValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + (y - x) * p)
        case let (.vector(x), .vector(y)) where x.count == y.count: return .vector(zip(x, y).map { $0 + ($1 - $0) * p })
        case let (.transform(x), .transform(y)):
            guard let dx = DecomposedTransform(x), let dy = DecomposedTransform(y) else { break }
            return .transform(DecomposedTransform.interpolate(dx, dy, p).matrix)
        case let (.path(x?), .path(y?)):
            guard let mixed = CGPath.interpolate(x, y, p) else { break }
            return .path(mixed)
        case (.bool, .bool): return p < 1 ? a : b
        default: break
        }
        return p < 0.5 ? a : b
    }

    /// `a + b` (transforms: `CATransform3DConcat(a, b)`, `a` acting first).
    static func add(_ a: AnimatedValue, _ b: AnimatedValue) -> AnimatedValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + y)
        case let (.vector(x), .vector(y)) where x.count == y.count: return .vector(zip(x, y).map { $0 + $1 })
        case let (.transform(x), .transform(y)): return .transform(x.concatenating(y))
        default: return a
        }
    }

    /// `a − b` (transforms: `a · b⁻¹`).
    static func subtract(_ a: AnimatedValue, _ b: AnimatedValue) -> AnimatedValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x - y)
        case let (.vector(x), .vector(y)) where x.count == y.count: return .vector(zip(x, y).map { $0 - $1 })
        case let (.transform(x), .transform(y)): return .transform(x.concatenating(y.inverted()))
        default: return a
        }
    }

    /// `a · n`, for cumulative repeats (transforms: `a` applied `n` times).
    static func scaled(_ a: AnimatedValue, by n: Double) -> AnimatedValue {
        switch a {
        case let .number(x): return .number(x * n)
        case let .vector(x): return .vector(x.map { $0 * n })
        case let .transform(t):
            var r = CATransform3D.identity
            // Bounded before the conversion: an overflowing repeat count (a tiny duration
            // repeated forever) would trap in Int(_:).
            for _ in 0..<(n >= 1 ? Int(min(n, 10_000)) : 0) { r = r.concatenating(t) }
            return .transform(r)
        case .bool, .path, .image, .string: return a
        }
    }

    /// The Euclidean distance between two values, for paced keyframes (values that cannot be
    /// mixed are 1 apart when they differ).
    static func distance(_ a: AnimatedValue, _ b: AnimatedValue) -> Double {
        guard let x = a.components, let y = b.components, x.count == y.count else { return a == b ? 0 : 1 }
        return zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
