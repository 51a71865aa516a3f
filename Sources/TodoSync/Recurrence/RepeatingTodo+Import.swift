import TodoStore

extension RepeatingTodo {
    /// A repeating todo read from another tool, moved on from an occurrence that tool finished.
    ///
    /// taskwarrior makes an instance of a series only as its date comes: an instance completed
    /// early leaves the template with none pending, and the todo read from it stands at the last
    /// occurrence done. When the deadline is one of `finished`, it becomes the rule's first
    /// occurrence after the last of them, counted from the deadline, and the start date moves
    /// with it (`TodoFields.moveDeadline(to:)`, as `todo done` moves it); a series with none left
    /// (UNTIL passed) is done, at `completedAt`. Anything else comes back unchanged: a deadline
    /// not finished (the current occurrence as the other tool had it), a todo that is done,
    /// dateless or does not repeat, a rule with COUNT (it would have to be counted down too) or
    /// one the engine does not expand, an occurrence too far ahead.
    public static func movedPast(
        _ finished: [CalendarDate], of fields: TodoFields, completedAt: UTCTimestamp?
    ) -> TodoFields {
        guard let deadline = fields.deadline, finished.contains(deadline), let last = finished.max(), !fields.isDone,
            let repeating = RepeatingTodo(fields), repeating.rule.count == nil, repeating.rule.isExpandable
        else { return fields }
        var fields = fields
        switch RecurrenceSet(anchor: .date(deadline), rules: [repeating.rule]).first(after: .date(last)) {
        case .occurrence(.date(let next)):
            fields.moveDeadline(to: next)
        case .end:
            fields.isDone = true
            fields.completed = completedAt
        default:
            break
        }
        return fields
    }
}
