/// One parameter of a content line: `TZID=Europe/Berlin`, `MEMBER="mailto:a","mailto:b"`.
public struct ICalendarParameter: Sendable, Equatable, Hashable {
    /// The name, upper-cased (names are case-insensitive, RFC 5545 section 2).
    public var name: String
    /// The values, without their quotes; most parameters have exactly one.
    public var values: [String]

    /// Creates a parameter; `name` is upper-cased.
    public init(name: String, values: [String]) {
        self.name = ICalendar.upper(name)
        self.values = values
    }

    /// The first value, or `""` (for one-valued parameters such as `VALUE` and `TZID`).
    public var value: String { values.first ?? "" }
}

/// One property of a component: a content line, `DUE;VALUE=DATE:20240501`.
///
/// A property read from a text remembers that text exactly (its folds and line endings as the
/// other app wrote them), and ``ICalendar/serialize(_:)`` writes it back byte for byte while it
/// is unchanged: a CalDAV server or another client sees no difference in what `todo` does not
/// own. Changing ``name``, ``parameters`` or ``value`` drops the remembered text, and the
/// property is written fresh. Equality compares the content, never the remembered text.
public struct ICalendarProperty: Sendable, Equatable {
    /// The name, upper-cased: `SUMMARY`, `X-APPLE-SORT-ORDER`.
    public var name: String { didSet { original = nil } }
    /// The parameters, in their order.
    public var parameters: [ICalendarParameter] { didSet { original = nil } }
    /// The value as written: TEXT values still escaped (see ``ICalendar/unescapeText(_:)``).
    public var value: String { didSet { original = nil } }

    /// The exact text this property was read from, line endings included; `nil` once changed.
    var original: String?

    /// Creates a property; `name` is upper-cased.
    public init(name: String, parameters: [ICalendarParameter] = [], value: String) {
        self.name = ICalendar.upper(name)
        self.parameters = parameters
        self.value = value
    }

    /// A TEXT property (`SUMMARY`, `DESCRIPTION`) holding `text`, escaped.
    public init(name: String, text: String) {
        self.init(name: name, value: ICalendar.escapeText(text))
    }

    /// The first parameter called `name` (any case), if any.
    public func parameter(named name: String) -> ICalendarParameter? {
        let name = ICalendar.upper(name)
        return parameters.first { $0.name == name }
    }

    /// The value unescaped as TEXT.
    public var text: String { ICalendar.unescapeText(value) }

    public static func == (lhs: ICalendarProperty, rhs: ICalendarProperty) -> Bool {
        lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }
}

/// A component: `BEGIN:VTODO` ... `END:VTODO`, its properties and sub-components in their order.
///
/// Order is kept as read, so an unchanged component serialises as it was read; the BEGIN and
/// END lines are remembered too (see ``ICalendarProperty``). Equality compares the content.
///
/// A tree is released, compared and written recursively, one frame per level. That is safe
/// because a tree is shallow: ``ICalendar/parse(_:)`` never builds one deeper than
/// ``ICalendar/maxDepth``, and the code here builds three levels at most.
public struct ICalendarComponent: Sendable, Equatable {
    /// One child of a component, in document order.
    public enum Child: Sendable, Equatable {
        case property(ICalendarProperty)
        case component(ICalendarComponent)
    }

    /// The name, upper-cased: `VCALENDAR`, `VTODO`, `VALARM`.
    public var name: String {
        didSet {
            beginText = nil
            endText = nil
        }
    }
    /// Properties and sub-components in document order.
    public var children: [Child]

    /// The exact BEGIN and END lines as read (line endings included); `nil` when made here.
    var beginText: String?
    var endText: String?
    /// The line of the text its BEGIN was on, for messages about it; `nil` when made here.
    public internal(set) var line: Int?

    /// Creates a component; `name` is upper-cased.
    public init(name: String, children: [Child] = []) {
        self.name = ICalendar.upper(name)
        self.children = children
    }

    /// The first property called `name` (any case), if any.
    public func property(named name: String) -> ICalendarProperty? {
        let name = ICalendar.upper(name)
        for case .property(let property) in children where property.name == name { return property }
        return nil
    }

    /// Every property called `name` (any case), in order.
    public func properties(named name: String) -> [ICalendarProperty] {
        let name = ICalendar.upper(name)
        return children.compactMap { child in
            if case .property(let property) = child, property.name == name { return property }
            return nil
        }
    }

    /// The direct sub-components called `name` (any case), in order.
    public func components(named name: String) -> [ICalendarComponent] {
        let name = ICalendar.upper(name)
        return children.compactMap { child in
            if case .component(let component) = child, component.name == name { return component }
            return nil
        }
    }

    /// Puts `property` in place of the first property of its name, removing any others of that
    /// name; adds it after the last property when there is none.
    ///
    /// Setting a property to what it already is keeps the one read, with its original text,
    /// so a no-op write leaves the serialisation byte-identical.
    public mutating func setProperty(_ property: ICalendarProperty) {
        guard
            let first = children.firstIndex(where: {
                if case .property(let p) = $0 { p.name == property.name } else { false }
            })
        else {
            let last = children.lastIndex { if case .property = $0 { true } else { false } }
            children.insert(.property(property), at: last.map { $0 + 1 } ?? 0)
            return
        }
        if case .property(let existing) = children[first], existing != property {
            children[first] = .property(property)
        }
        var index = children.count - 1
        while index > first {
            if case .property(let p) = children[index], p.name == property.name { children.remove(at: index) }
            index -= 1
        }
    }

    /// Removes every property called `name` (any case).
    public mutating func removeProperties(named name: String) {
        let name = ICalendar.upper(name)
        children.removeAll { if case .property(let p) = $0 { p.name == name } else { false } }
    }

    public static func == (lhs: ICalendarComponent, rhs: ICalendarComponent) -> Bool {
        lhs.name == rhs.name && lhs.children == rhs.children
    }
}
