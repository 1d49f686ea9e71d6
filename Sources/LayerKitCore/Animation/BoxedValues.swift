// Apple's boxes for Core Animation's values: `NSValue(cgPoint:)` and its siblings, and the
// bridging that lets `value(forKey:) as? CGFloat` or `as? CGPoint` work as it does on Apple's
// platforms.
//
// swift-corelibs-foundation has `NSValue(point:)`, `(size:)` and `(rect:)` (on Linux NSPoint,
// NSSize and NSRect are CGPoint, CGSize and CGRect), so Apple's `cgPoint` spellings are those.
// Its `NSValue(bytes:objCType:)` cannot hold a struct ("cannot encode structs"), but does hold
// an array of doubles: a `CATransform3D` is boxed as its 16 numbers (`[16d]`) and a
// `CGAffineTransform` as its 6 (`[6d]`), in declaration order, which is their memory layout.
//
// Foundation on Linux bridges `NSNumber` to `Double`, `Float` and the integers but not to
// `CGFloat`, and `NSValue` to none of the geometry types; Apple's overlay bridges all of them.
// The conformances below add what is missing, so that a number LayerKit boxes as `NSNumber`
// (as Apple does) reads back with `as? CGFloat`, and a point boxed as `NSValue` with `as?
// CGPoint`, in any program that links LayerKit.

import Foundation

extension NSValue {
    /// A box holding `point` (Apple's spelling of `NSValue(point:)`).
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    /// A box holding `size`.
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    /// A box holding `rect`.
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }

    /// A box holding `t` (its 16 numbers, `m11` first).
    public convenience init(caTransform3D t: CATransform3D) {
        var t = t
        self.init(bytes: &t, objCType: Self.transform3DType)
    }

    /// A box holding `t` (its 6 numbers, `a` first).
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        var t = t
        self.init(bytes: &t, objCType: Self.affineTransformType)
    }

    /// The point boxed (`.zero` when the box holds something else, as Apple's reads garbage
    /// rather than failing).
    public var cgPointValue: CGPoint { holds(CGPoint.self) ? pointValue : .zero }
    /// The size boxed (`.zero` when the box holds something else).
    public var cgSizeValue: CGSize { holds(CGSize.self) ? sizeValue : .zero }
    /// The rectangle boxed (`.zero` when the box holds something else).
    public var cgRectValue: CGRect { holds(CGRect.self) ? rectValue : .zero }
    /// The transform boxed (the identity when the box holds something else).
    public var caTransform3DValue: CATransform3D { boxed(CATransform3D.self, type: Self.transform3DType) ?? .identity }
    /// The affine transform boxed (the identity when the box holds something else).
    public var cgAffineTransformValue: CGAffineTransform {
        boxed(CGAffineTransform.self, type: Self.affineTransformType) ?? .identity
    }

    static let transform3DType = "[16d]", affineTransformType = "[6d]"

    /// Whether the box holds a `T` (one of Foundation's geometry types, whose `objCType` names
    /// the struct, e.g. `{CGPoint=dd}`).
    private func holds<T>(_: T.Type) -> Bool {
        String(cString: objCType).hasPrefix("{\(T.self)=")
    }

    /// The `T` boxed with `type`, or `nil` when the box holds something else.
    fileprivate func boxed<T>(_: T.Type, type: String) -> T? {
        guard String(cString: objCType) == type else { return nil }
        return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            getValue(UnsafeMutableRawPointer(buffer.baseAddress!))
            return buffer.baseAddress!.move()
        }
    }

    /// The value boxed, typed as Swift code reads it (`CGPoint`, `CGSize`, `CGRect`,
    /// `CATransform3D`, `CGAffineTransform`); `nil` for any other box.
    var unboxed: Any? {
        if holds(CGPoint.self) { return pointValue }
        if holds(CGSize.self) { return sizeValue }
        if holds(CGRect.self) { return rectValue }
        if let t = boxed(CATransform3D.self, type: Self.transform3DType) { return t }
        return boxed(CGAffineTransform.self, type: Self.affineTransformType)
    }
}

/// A value type that Apple's overlay bridges to `NSValue`: `as? CGPoint` on an `NSValue` (what
/// `value(forKey:)` returns) unboxes it, and `as? NSValue` on the struct boxes it.
protocol NSValueBridged: _ObjectiveCBridgeable where _ObjectiveCType == NSValue {
    var boxedValue: NSValue { get }
}

extension NSValueBridged {
    /// The value in `box`, if it holds one of this type.
    init?(unboxing box: NSValue) {
        guard let value = box.unboxed as? Self else { return nil }
        self = value
    }

    /// The box (`as? NSValue`, `as? NSNumber`).
    public func _bridgeToObjectiveC() -> NSValue { boxedValue }
    /// The value in `source` (`as!`).
    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout Self?) { result = Self(unboxing: source) }
    /// The value in `source`, if it holds one of this type (`as?`).
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout Self?) -> Bool {
        result = Self(unboxing: source)
        return result != nil
    }
    /// The value in `source` (bridging an Objective-C return value).
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> Self { source.flatMap(Self.init(unboxing:))! }
}

extension CGPoint: @retroactive _ObjectiveCBridgeable, NSValueBridged {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSValue
    var boxedValue: NSValue { NSValue(cgPoint: self) }
}

extension CGSize: @retroactive _ObjectiveCBridgeable, NSValueBridged {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSValue
    var boxedValue: NSValue { NSValue(cgSize: self) }
}

extension CGRect: @retroactive _ObjectiveCBridgeable, NSValueBridged {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSValue
    var boxedValue: NSValue { NSValue(cgRect: self) }
}

extension CATransform3D: _ObjectiveCBridgeable, NSValueBridged {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSValue
    var boxedValue: NSValue { NSValue(caTransform3D: self) }
}

extension CGAffineTransform: _ObjectiveCBridgeable, NSValueBridged {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSValue
    var boxedValue: NSValue { NSValue(cgAffineTransform: self) }
}

extension CGFloat: @retroactive _ObjectiveCBridgeable {
    /// The Foundation class that boxes this type.
    public typealias _ObjectiveCType = NSNumber
    /// The box (`as? NSValue`, `as? NSNumber`).
    public func _bridgeToObjectiveC() -> NSNumber { NSNumber(value: Double(self)) }
    /// The value in `source` (`as!`).
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) { result = CGFloat(source.doubleValue) }
    /// The value in `source`, if it holds one of this type (`as?`).
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) -> Bool {
        result = CGFloat(source.doubleValue)
        return true
    }
    /// The value in `source` (bridging an Objective-C return value).
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> CGFloat { CGFloat(source?.doubleValue ?? 0) }
}

/// The number in `value` as Apple's key-value coding takes numbers: any Swift number type or
/// an `NSNumber`; `nil` for anything else (a `Bool` is not a number here).
func numericValue(_ value: Any?) -> Double? {
    switch value {
    case let v as NSNumber: return v.doubleValue
    case let v as CGFloat: return Double(v)
    case let v as Double: return v
    case let v as Float: return Double(v)
    case let v as Int: return Double(v)
    case let v as any BinaryInteger: return Double(v)
    case let v as any BinaryFloatingPoint: return Double(v)
    default: return nil
    }
}
