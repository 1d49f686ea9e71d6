import Foundation

/// Why a value was refused: it is not of a type the key path takes (an animation's value at
/// `CALayer.add(_:forKey:)`, or a value given to `setValue(_:forKey:)` for a property).
public struct CAValueTypeError: Error, Equatable, CustomStringConvertible {
    /// The key path, e.g. `"position"`.
    public let keyPath: String
    /// Where the value was given, e.g. `"CABasicAnimation.toValue"` or `"setValue(_:forKey:)"`.
    public let source: String
    /// The type of the value given, e.g. `"NSValue holding CGSize"`.
    public let valueType: String
    /// What the key path takes, e.g. `"a point (CGPoint or NSValue(cgPoint:))"`.
    public let expected: String

    /// A one-line explanation.
    public var description: String {
        "\(source) for key path \"\(keyPath)\" is \(valueType), but it takes \(expected); refused"
    }
}

extension AnimatedValueKind {
    /// What values of this kind are, for error messages.
    var expectedDescription: String {
        switch self {
        case .number: return "a number (CGFloat, Double, Float, Int or NSNumber)"
        case .point: return "a point (CGPoint or NSValue(cgPoint:))"
        case .size: return "a size (CGSize or NSValue(cgSize:))"
        case .rect: return "a rectangle (CGRect or NSValue(cgRect:))"
        case .color: return "a CGColor"
        case .transform: return "a transform (CATransform3D or NSValue(caTransform3D:))"
        case .bool: return "a Bool"
        case .path: return "a CGPath"
        case .image: return "a CGImage"
        case .string: return "a String"
        case .colors: return "an array of CGColor"
        case .numbers: return "an array of numbers"
        }
    }

    /// The type of `value`, for error messages (a box names what it holds).
    static func typeDescription(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if type(of: value) is NSValue.Type, let box = value as? NSValue, !(box is NSNumber) {
            return "NSValue holding \(box.unboxed.map { "\(type(of: $0))" } ?? String(cString: box.objCType))"
        }
        return "\(type(of: value))"
    }
}

extension CALayer {
    /// The layer's state as animations and the key path table read it.
    var modelState: AnimatedLayerState { AnimatedLayerState(properties: properties, kind: snapshotKind, custom: customValues) }

    /// The value of `key`, as Core Animation's key-value coding returns it: a property (any
    /// animatable key path, e.g. `"position"`, `"bounds.size"`, `"transform.rotation.z"`)
    /// boxed as Apple boxes it for Swift (numbers `NSNumber`, which `as? CGFloat` reads;
    /// points, sizes, rects and transforms `NSValue`, which `as? CGPoint` … reads; colours
    /// `CGColor`; no colour, `nil`); another key's value as stored
    /// by `setValue(_:forKey:)`, or, never set, the class's `defaultValue(forKey:)`.
    public func value(forKey key: String) -> Any? {
        if let entry = AnimatableKeyPath.property(key, of: snapshotKind) { return entry.boxedValue(modelState) }
        return customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets `key` as Core Animation's key-value coding does. A property (an animatable key
    /// path) is set exactly as its setter sets it, implicit animation included (a component,
    /// e.g. `"position.x"`, changes the property it belongs to, whose action runs); a value
    /// of the wrong type is refused and reported to `valueTypeErrorHandler`, and one with a
    /// non-finite number is ignored, as the setters ignore it. Any other key stores `value` on
    /// the layer (`nil` removes it), copied by `init(layer:)` into presentation copies; the
    /// layer's action for the key runs (`action(forKey:)`, when the layer has been drawn and
    /// the transaction does not disable actions), and the layer is marked for display when
    /// `needsDisplay(forKey:)` says so.
    public func setValue(_ value: Any?, forKey key: String) {
        if let entry = AnimatableKeyPath.property(key, of: snapshotKind) { return setProperty(entry, key: key, value) }
        let action = hasBeenCommitted && !TransactionStack.shared.actionsDisabled ? self.action(forKey: key) : nil
        customValues[key] = value
        markNeedsDisplay(forChangeOf: key)
        action?.run(forKey: key, object: self, arguments: nil)
    }

    /// The value at `keyPath`: a property's key path (`"transform.rotation.z"`,
    /// `"position.x"`, …), or a path through stored layers (`"sublayer.opacity"` where
    /// `"sublayer"` was set to a layer); `nil` when the path leads nowhere.
    public func value(forKeyPath keyPath: String) -> Any? {
        guard AnimatableKeyPath.property(keyPath, of: snapshotKind) == nil, let dot = keyPath.firstIndex(of: "."),
              let next = value(forKey: String(keyPath[..<dot])) as? CALayer else { return value(forKey: keyPath) }
        return next.value(forKeyPath: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// Sets the value at `keyPath` (see `value(forKeyPath:)` and `setValue(_:forKey:)`); a path
    /// that does not lead through a stored layer is stored as one key.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard AnimatableKeyPath.property(keyPath, of: snapshotKind) == nil, let dot = keyPath.firstIndex(of: "."),
              let next = self.value(forKey: String(keyPath[..<dot])) as? CALayer else { return setValue(value, forKey: keyPath) }
        next.setValue(value, forKeyPath: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// Sets the property of table entry `entry` (key path `key`) through the setters' hook.
    private func setProperty(_ entry: AnimatableKeyPath, key: String, _ value: Any?) {
        let write: (inout AnimatedLayerState) -> Void
        if value == nil, let setNil = entry.setNil {
            write = setNil
        } else {
            let converted = value == nil ? entry.noneValue : entry.kind.convert(value)
            guard let converted else {
                return valueTypeErrorHandler(CAValueTypeError(keyPath: key, source: "setValue(_:forKey:)",
                                                              valueType: AnimatedValueKind.typeDescription(value),
                                                              expected: entry.kind.expectedDescription))
            }
            guard converted.isFinite else { return }
            write = { entry.write(&$0, converted) }
        }
        changeAnimatable(String(key.prefix { $0 != "." })) {
            var state = modelState
            write(&state)
            return adopt(state)
        }
    }

    /// Takes the properties and typed style of `state`; returns whether they changed. A change
    /// of bounds or transform marks layout as their setters do.
    func adopt(_ state: AnimatedLayerState) -> Bool {
        let old = properties, kind = snapshotKind
        guard state.properties != old || state.kind != kind else { return false }
        properties = state.properties
        if state.kind != kind { adoptStyle(of: state.kind) }
        if old.transform != properties.transform || old.bounds != properties.bounds {
            geometryChanged(resized: old.bounds.size != properties.bounds.size)
        }
        return true
    }

    /// The default of property `key` (any key path of the table) for layers of this class, boxed
    /// as `value(forKey:)` boxes it; `nil` for other keys.
    static func defaultPropertyValue(forKey key: String) -> Any? {
        guard let entry = AnimatableKeyPath.property(key, of: defaultKind) else { return nil }
        return entry.boxedValue(AnimatedLayerState(properties: LayerProperties(), kind: defaultKind))
    }
}

extension AnimatedValue {
    /// Whether every number in the value is finite (paths, images and booleans are).
    var isFinite: Bool {
        switch self {
        case let .number(x): return x.isFinite
        case let .vector(x): return x.allSatisfy(\.isFinite)
        case let .transform(m): return m.isFiniteValue
        case let .path(p): return p.isFiniteValue
        case .bool, .image, .string: return true
        }
    }
}

extension AnimatedValueKind {
    /// What `nil` sets a property of this kind to where its entry cannot be emptied
    /// (`AnimatableKeyPath.setNil`): no colour (transparent black, as drawn), no path, no
    /// image, no list; `nil` for kinds that have no "none".
    var noneValue: AnimatedValue? {
        switch self {
        case .color: return .color(nil)
        case .path: return .path(nil)
        case .image: return .image(nil)
        case .colors, .numbers: return .vector([])
        default: return nil
        }
    }
}

/// An animation property that key-value coding reaches by its Objective-C name.
private struct AnimationKey {
    /// Whether the animation has the property (is of the class that declares it).
    let applies: (CAAnimation) -> Bool
    let get: (CAAnimation) -> Any?
    /// Sets the property; returns `false` when the value is not of its type.
    let set: (CAAnimation, Any?) -> Bool

    /// A property of animations of class `A`: `read` boxes its value, `make` unboxes a value
    /// given (`nil`: not of the property's type).
    static func property<A: CAAnimation, T>(_ kp: ReferenceWritableKeyPath<A, T>, read: @escaping (T) -> Any?,
                                            make: @escaping (Any?) -> T?) -> AnimationKey {
        AnimationKey(applies: { $0 is A }, get: { ($0 as? A).flatMap { read($0[keyPath: kp]) } },
                     set: { a, v in
                         guard let a = a as? A, let x = make(v) else { return false }
                         a[keyPath: kp] = x
                         return true
                     })
    }

    /// A number, boxed as `NSNumber`.
    static func number<A: CAAnimation, T: BinaryFloatingPoint>(_ kp: ReferenceWritableKeyPath<A, T>) -> AnimationKey {
        property(kp, read: { NSNumber(value: Double($0)) }, make: { numericValue($0).map(T.init) })
    }

    /// A Boolean.
    static func flag<A: CAAnimation>(_ kp: ReferenceWritableKeyPath<A, Bool>) -> AnimationKey {
        property(kp, read: { $0 }, make: { $0 as? Bool })
    }

    /// An optional value of any type (`nil` sets none).
    static func optional<A: CAAnimation, T>(_ kp: ReferenceWritableKeyPath<A, T?>) -> AnimationKey {
        property(kp, read: { $0 }, make: { v in v == nil ? .some(nil) : (v as? T).map { .some($0) } })
    }

    /// A string constant, as its raw value.
    static func constant<A: CAAnimation, T: RawRepresentable>(_ kp: ReferenceWritableKeyPath<A, T>) -> AnimationKey where T.RawValue == String {
        property(kp, read: { $0.rawValue }, make: { ($0 as? String).flatMap(T.init(rawValue:)) })
    }

    /// The animation properties by their key-value coding names (Apple's: the Objective-C
    /// getter names, `removedOnCompletion`, `additive`, `cumulative`).
    static let keys: [String: AnimationKey] = [
        "beginTime": number(\CAAnimation.beginTime), "duration": number(\CAAnimation.duration),
        "speed": number(\CAAnimation.speed), "timeOffset": number(\CAAnimation.timeOffset),
        "repeatCount": number(\CAAnimation.repeatCount), "repeatDuration": number(\CAAnimation.repeatDuration),
        "autoreverses": flag(\CAAnimation.autoreverses), "fillMode": constant(\CAAnimation.fillMode),
        "removedOnCompletion": flag(\CAAnimation.isRemovedOnCompletion),
        "timingFunction": optional(\CAAnimation.timingFunction),
        "keyPath": optional(\CAPropertyAnimation.keyPath), "additive": flag(\CAPropertyAnimation.isAdditive),
        "cumulative": flag(\CAPropertyAnimation.isCumulative),
        "fromValue": optional(\CABasicAnimation.fromValue), "toValue": optional(\CABasicAnimation.toValue),
        "byValue": optional(\CABasicAnimation.byValue),
        "values": optional(\CAKeyframeAnimation.values), "keyTimes": optional(\CAKeyframeAnimation.keyTimes),
        "path": optional(\CAKeyframeAnimation.path), "calculationMode": constant(\CAKeyframeAnimation.calculationMode),
        "animations": optional(\CAAnimationGroup.animations),
    ]
}

extension CAAnimation {
    /// The value of `key`: one of the animation's properties by its Objective-C name
    /// (`duration`, `keyPath`, `toValue`, `removedOnCompletion`, …; numbers as `NSNumber`),
    /// or a value stored under any other key by `setValue(_:forKey:)` (Apple's animations
    /// accept any key: code stores, say, the layer an animation belongs to, and reads it back
    /// in `animationDidStop(_:finished:)`); `nil` when none. Stored values are copied with the
    /// animation, so the layer's copy that the delegate is handed has them.
    public func value(forKey key: String) -> Any? {
        if let property = AnimationKey.keys[key], property.applies(self) { return property.get(self) }
        return customValues[key]
    }

    /// Sets property `key` (see `value(forKey:)`; a value not of its type is refused and
    /// reported to `valueTypeErrorHandler`), or stores `value` under any other key (`nil`
    /// removes it).
    public func setValue(_ value: Any?, forKey key: String) {
        guard let property = AnimationKey.keys[key], property.applies(self) else { return customValues[key] = value }
        guard property.set(self, value) else {
            return valueTypeErrorHandler(CAValueTypeError(keyPath: key, source: "\(type(of: self)).setValue(_:forKey:)",
                                                          valueType: AnimatedValueKind.typeDescription(value),
                                                          expected: "the type of its property \(key)"))
        }
    }

    /// `value(forKey:)` of the whole path, as one key.
    public func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }

    /// `setValue(_:forKey:)` of the whole path, as one key.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }
}
