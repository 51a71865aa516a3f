import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// The pure parts of `todo ui`, without a terminal: key decoding, the reducer (key + state ->
/// state + effects) and rendering a frame. The tmux tests (UITests) run the whole program.
@Suite(.timed) struct UIUnitTests {
    static let today = CalendarDate(year: 2024, month: 5, day: 1)!

    /// Three todos in due order: 1 undone, 2 done, 3 undone.
    static let todos = [
        Todo(id: 1, TodoFields(name: "Buy milk", deadline: CalendarDate("2024-05-01"))),
        Todo(id: 2, TodoFields(name: "Pay rent", deadline: CalendarDate("2024-05-02"), isDone: true)),
        Todo(id: 3, TodoFields(name: "Call mum"))
    ]

    private func list(_ todos: [Todo] = todos) -> UIList {
        UIList(TodoResultsSnapshot(order: .due, todos: todos), order: .due)
    }

    private func state(on line: Int, in list: UIList) -> UIState {
        var state = UIState(order: .due, searches: [])
        state.place(at: line, in: list)
        return state
    }

    private func press(_ keys: [Key], _ state: inout UIState, _ list: inout UIList) -> [UIEffect] {
        var effects: [UIEffect] = []
        for key in keys {
            effects += UIReducer.reduce(&state, key, list: &list, context: .init(page: 10, today: Self.today))
        }
        return effects
    }

    // MARK: Keys

    @Test func decodesArrowsHomeEndPagesAndText() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(decoder.decode(Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F".utf8)) == [.pageUp, .pageDown, .home, .end])
        #expect(decoder.decode(Array("jé牛\r".utf8)) == [.character("j"), .character("é"), .character("牛"), .enter])
        #expect(decoder.decode([3, 0x7F]) == [.interrupt, .backspace])
    }

    @Test func keepsSequencesAndCharactersCutBetweenReads() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, UInt8(ascii: "[")]) == [])
        #expect(decoder.decode([UInt8(ascii: "A")]) == [.up])
        let milk = Array("牛".utf8)
        #expect(decoder.decode(Array(milk[..<2])) == [])
        #expect(decoder.decode(Array(milk[2...])) == [.character("牛")])
        // A lone ESC at the end of a read is the Escape key.
        #expect(decoder.decode([0x1B]) == [.escape])
    }

    // MARK: The reducer

    @Test func movingSkipsSectionHeadersAndStopsAtTheEnds() {
        var list = list()
        var state = state(on: 1, in: list)
        #expect(state.cursorID == .todo(1, .all))
        _ = press([.up], &state, &list)
        #expect(state.cursor == 1)  // the "All" header is not a stop
        _ = press([.down, .down, .down], &state, &list)
        #expect(state.cursorID == .group(TodoGroup.undone.id))  // past the "Outline" header
        _ = press([.end], &state, &list)
        #expect(state.cursorID == .todo(2, .outline))  // the last row: Done's todo
        _ = press([.down], &state, &list)
        #expect(state.cursorID == .todo(2, .outline))
    }

    @Test func toggleAndDeleteAreEffectsNotWrites() {
        var list = list()
        var state = state(on: 1, in: list)
        #expect(press([.character(" ")], &state, &list) == [.setDone(Self.todos[0], true)])
        #expect(press([.character("d")], &state, &list) == [])
        guard case .confirmDelete(let todo) = state.mode else {
            Issue.record("d did not ask")
            return
        }
        #expect(todo == Self.todos[0])
        #expect(press([.character("y")], &state, &list) == [.delete(Self.todos[0])])
        // Anything but y keeps it.
        _ = press([.character("d")], &state, &list)
        #expect(press([.character("n")], &state, &list) == [])
        #expect(state.message == "Kept \"Buy milk\"")
    }

    /// Issue 37, point 5: the add and edit prompts read tags and attribute words as `todo add`
    /// does (one rule, QuickCapture); a `due:` word answers the deadline prompt; the words of the
    /// name being edited stay as they are; a refused word asks again.
    @Test func promptsReadTagsAndAttributeWordsAsTodoAddDoes() {
        var list = list()
        var state = state(on: 1, in: list)
        func type(_ text: String) -> [Key] { text.map { Key.character($0) } }
        let added = press(
            [.character("a")] + type("Call mum +family @phone pri:H project:Home") + [.enter, .enter], &state, &list)
        var expected = TodoFields(
            name: "Call mum", tags: TodoTags(["+family", "@phone"].compactMap { TodoTag($0) }),
            project: TodoProject("Home"))
        expected.priority = TodoPriority(parsing: "H") ?? .none
        #expect(added == [.add(expected)])
        // A due: word is the deadline: no deadline prompt.
        #expect(
            press([.character("a")] + type("Jam due:tomorrow") + [.enter], &state, &list) == [
                .add(TodoFields(name: "Jam", deadline: CalendarDate("2024-05-02")))
            ])
        // A quoted word stays in the name.
        #expect(
            press([.character("a")] + type(#"Reply "re:budget""#) + [.enter, .enter], &state, &list) == [
                .add(TodoFields(name: "Reply re:budget"))
            ])
        // A word like an attribute of no key: said, and asked again with the text kept.
        #expect(press([.character("a")] + type("Reply re:budget") + [.enter], &state, &list) == [])
        #expect(state.messageIsError)
        #expect(state.message?.hasPrefix("'re:budget' looks like an attribute") == true, "\(state.message ?? "")")
        guard case .prompt(let asked) = state.mode, case .add = asked.purpose else {
            Issue.record("a refused word did not ask again: \(state.mode)")
            return
        }
        #expect(press([.escape], &state, &list) == [])
        // Edit: tags are added to the todo's, a due: word is its new deadline.
        let edit = press([.character("e"), .end] + type(" +dairy due:2024-05-09") + [.enter], &state, &list)
        var edited = Self.todos[0].fields
        edited.tags = TodoTags([TodoTag("+dairy")].compactMap { $0 })
        edited.moveDeadline(to: CalendarDate("2024-05-09"))
        #expect(edit == [.edit(Self.todos[0], edited)])
    }

    /// A name another app wrote with words like attributes or tags in it is edited as it is:
    /// only the words typed in the prompt are read.
    @Test func theWordsOfTheNameBeingEditedStayAsTheyAre() {
        let todo = Todo(id: 1, TodoFields(name: "Ask re:budget +1", deadline: CalendarDate("2024-05-01")))
        var list = list([todo])
        var state = state(on: 1, in: list)
        let edit = press(
            [.character("e"), .end] + " now".map { Key.character($0) } + [.enter, .enter], &state, &list)
        var edited = todo.fields
        edited.name = "Ask re:budget +1 now"
        #expect(edit == [.edit(todo, edited)])
        // A name's own spacing and quotes stay when only its deadline is edited.
        let phone = Todo(id: 1, TodoFields(name: #"Say  "hi""#, deadline: CalendarDate("2024-05-01")))
        var phoneList = self.list([phone])
        var phoneState = self.state(on: 1, in: phoneList)
        let deadlineOnly = press(
            [.character("e"), .enter, .clearLine] + "2024-05-09".map { Key.character($0) } + [.enter], &phoneState,
            &phoneList)
        var moved = phone.fields
        moved.moveDeadline(to: CalendarDate("2024-05-09"))
        #expect(deadlineOnly == [.edit(phone, moved)])
    }

    @Test func promptsAddEditAndFilter() {
        var list = list()
        var state = state(on: 1, in: list)
        // Add: the name, then the deadline (empty: none; any date form, `next friday` too).
        #expect(
            press([.character("a")] + "Eggs".map { Key.character($0) } + [.enter, .enter], &state, &list) == [
                .add(TodoFields(name: "Eggs"))
            ])
        #expect(
            press(
                [.character("a")] + "Jam".map { Key.character($0) } + [.enter]
                    + " next friday".map { Key.character($0) } + [.enter], &state, &list)
                == [.add(TodoFields(name: "Jam", deadline: CalendarDate("2024-05-03")))])
        // A bad deadline asks again (see aBadDeadlineAsksAgainKeepingTheName).
        #expect(
            press(
                [.character("a")] + "Tea".map { Key.character($0) } + [.enter] + "soon".map { Key.character($0) } + [
                    .enter, .escape
                ], &state, &list) == [])
        // A blank name adds nothing and says why.
        #expect(press([.character("a"), .character(" "), .enter], &state, &list) == [])
        #expect(state.messageIsError)
        // Edit: the name, then the deadline (any date form).
        let edit = press(
            [.character("e"), .clearLine] + "Buy oat milk".map { Key.character($0) } + [.enter, .clearLine]
                + "tomorrow".map { Key.character($0) } + [.enter], &state, &list)
        var edited = Self.todos[0].fields
        edited.name = "Buy oat milk"
        edited.moveDeadline(to: CalendarDate("2024-05-02"))
        #expect(edit == [.edit(Self.todos[0], edited)])
        // A bad date asks again; Esc changes nothing.
        let bad = press(
            [.character("e"), .enter, .clearLine] + "someday".map { Key.character($0) } + [.enter], &state, &list)
        #expect(bad == [])
        #expect(state.messageIsError)
        guard case .prompt(let asked) = state.mode, case .editDeadline(_, "Buy milk") = asked.purpose else {
            Issue.record("a bad date did not ask again")
            return
        }
        #expect(press([.escape], &state, &list) == [])
        // Filter: every edit applies at once, Enter keeps it, Esc puts back the filter `/` found,
        // empty clears.
        #expect(
            press([.character("/")] + "rent".map { Key.character($0) } + [.enter], &state, &list)
                == [.filter(.typed), .filter(.typed), .filter(.typed), .filter(.typed), .filter(.kept)])
        #expect(state.searches == ["rent"])
        #expect(press([.character("/"), .escape], &state, &list) == [.filter(.cancelled)])
        #expect(state.searches == ["rent"])
        #expect(press([.character("/"), .backspace, .control(23)], &state, &list) == [.filter(.typed), .filter(.typed)])
        #expect(state.searches.isEmpty)
        #expect(press([.escape], &state, &list) == [.filter(.cancelled)])
        #expect(state.searches == ["rent"])
        #expect(press([.character("/"), .clearLine, .enter], &state, &list) == [.filter(.typed), .filter(.kept)])
        #expect(state.searches.isEmpty)
    }

    /// `todo ui --search a --search b` fetched with both terms, but the filter line showed only
    /// the first and editing it replaced both. The line shows every term, space separated, and
    /// the words typed are the terms, all of which must match, as `todo list --search` does.
    @Test func theFilterShowsAndEditsEveryTerm() {
        var list = list()
        var state = UIState(order: .due, searches: ["milk", "town"])
        state.follow(in: &list)
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: 100, maxID: 3)
        #expect(renderer.frame(list: list, state: state, rows: 10).first?.hasSuffix("filter: \"milk town\"") == true)
        _ = press([.character("/")], &state, &list)
        guard case .prompt(let prompt) = state.mode else {
            Issue.record("/ opened no prompt")
            return
        }
        #expect(prompt.text == "milk town", "the prompt starts from every term")
        #expect(
            press([.character(" "), .character("x")], &state, &list) == [.filter(.typed)],
            "a space alone is no new term")
        #expect(state.searches == ["milk", "town", "x"])
        #expect(press([.backspace, .backspace, .control(23)], &state, &list) == [.filter(.typed), .filter(.typed)])
        #expect(state.searches == ["milk"])
        #expect(press("  rent  ".map { Key.character($0) } + [.enter], &state, &list).last == .filter(.kept))
        #expect(state.searches == ["milk", "rent"], "extra spaces separate, they are not searched")
        // Esc puts back every term `/` found.
        _ = press([.character("/"), .clearLine], &state, &list)
        #expect(state.searches.isEmpty)
        #expect(press([.escape], &state, &list) == [.filter(.cancelled)])
        #expect(state.searches == ["milk", "rent"])
    }

    /// Issue 25, bug 7: a deadline that is not a date used to throw the typed name away.
    @Test func aBadDeadlineAsksAgainKeepingTheName() {
        var list = list()
        var state = state(on: 1, in: list)
        let typed = [.character("a")] + "Tea".map { Key.character($0) } + [.enter] + "soon".map { Key.character($0) }
        #expect(press(typed + [.enter], &state, &list) == [])
        #expect(state.messageIsError)
        #expect(state.message == "'soon' is not a date: fix it, or Esc cancels")
        guard case .prompt(let prompt) = state.mode, case .addDeadline(name: "Tea") = prompt.purpose else {
            Issue.record("a bad deadline did not ask again: \(state.mode)")
            return
        }
        #expect(prompt.text == "soon", "the text typed stays, to be corrected")
        // Corrected, the todo is added with the name typed first.
        let corrected = press([.clearLine] + "tomorrow".map { Key.character($0) } + [.enter], &state, &list)
        #expect(corrected == [.add(TodoFields(name: "Tea", deadline: CalendarDate("2024-05-02")))])
        // Esc still gives up.
        _ = press(typed + [.enter], &state, &list)
        #expect(press([.escape], &state, &list) == [])
        #expect(state.message == "Cancelled")
        guard case .browsing = state.mode else {
            Issue.record("Esc did not cancel the prompt")
            return
        }
    }

    /// Issue 25, bug 8: a filter that matches nothing looked like an empty list, and Esc left
    /// the cursor on the group row it had fallen to.
    @Test func aFilterMatchingNothingSaysSoAndEscPutsTheCursorBack() {
        var full = list()
        var state = state(on: 3, in: full)
        #expect(state.cursorID == .todo(3, .all))
        _ = press([.character("/")] + "zzz".map { Key.character($0) }, &state, &full)
        // The app shows the narrowed list: nothing matches, the cursor falls to a group row.
        var nothing = list([])
        state.follow(in: &nothing)
        #expect(state.cursorID != .todo(3, .all))
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: 40, maxID: 3)
        var frame = renderer.frame(list: nothing, state: state, rows: 10)
        #expect(frame.contains("  (no todo matches the filter)") && frame.contains("  (Esc puts the list back)"))
        #expect(!frame.contains { $0.contains("press a to add one") })
        // Esc: the whole list again, the cursor on its todo, the list from its top.
        state.top = 3
        #expect(press([.escape], &state, &nothing) == [.filter(.cancelled)])
        state.follow(in: &full)
        #expect(state.cursorID == .todo(3, .all) && state.cursor == 3 && state.top == 0)
        // A kept filter that matches nothing says how to clear it.
        state.searches = ["zzz"]
        frame = renderer.frame(list: nothing, state: state, rows: 10)
        #expect(frame.contains("  (/ Ctrl-U Enter clears it)"))
    }

    /// Issue 25, friction 8: `v` shows All, Outline or both, the cursor staying on its todo.
    @Test func vCyclesTheSectionsKeepingTheCursorOnItsTodo() {
        var list = list()
        var state = state(on: 3, in: list)
        #expect(state.cursorID == .todo(3, .all) && list.count == 10)
        #expect(press([.character("v")], &state, &list) == [.rememberSections(.all)])
        #expect(list.count == 4 && list.index(of: .group(TodoGroup.undone.id)) == nil)
        #expect(state.cursorID == .todo(3, .all) && state.cursor == 3)
        #expect(state.message == "Showing All (v switches)")
        #expect(press([.character("v")], &state, &list) == [.rememberSections(.outline)])
        #expect(list.count == 6 && list.index(of: .todo(3, .all)) == nil)
        #expect(state.cursorID == .todo(3, .outline) && state.cursor == 3)  // Outline, Undone, 1, 3
        guard case .sectionHeader(.outline) = list.entry(at: 0) else {
            Issue.record("the outline does not start the list")
            return
        }
        // From a group row to the flat list: its first todo.
        _ = press([.up, .up], &state, &list)
        #expect(state.cursorID == .group(TodoGroup.undone.id))
        _ = press([.character("v"), .character("v")], &state, &list)
        #expect(list.sections == .all && state.cursorID == .todo(1, .all))
        _ = press([.character("v")], &state, &list)
        #expect(list.sections == .outline && state.cursorID == .todo(1, .outline))
        _ = press([.character("v")], &state, &list)
        #expect(list.sections == .both && list.count == 10 && state.cursorID == .todo(1, .outline))
    }

    @Test func sortUndoFoldHelpAndQuit() {
        var list = list()
        var state = state(on: 1, in: list)
        #expect(press([.character("s")], &state, &list) == [.refetch(announcing: .sorted)])
        #expect(state.order == .name)
        #expect(press([.character("u")], &state, &list) == [.undo])
        _ = press([.end], &state, &list)
        _ = press([.left], &state, &list)  // from Done's todo up to its group
        #expect(state.cursorID == .group(TodoGroup.done.id))
        _ = press([.left], &state, &list)  // and fold it
        #expect(!list.isExpanded(.done))
        #expect(press([.enter], &state, &list) == [])  // Enter on a group unfolds it
        #expect(list.isExpanded(.done))
        _ = press([.character("?")], &state, &list)
        guard case .help = state.mode else {
            Issue.record("? did not show the keys")
            return
        }
        _ = press([.character("x")], &state, &list)  // any key returns
        guard case .browsing = state.mode else {
            Issue.record("a key did not leave help")
            return
        }
        _ = press([.character("q")], &state, &list)
        #expect(state.quitting)
    }

    // MARK: Rendering

    @Test func aFrameShowsBothSectionsTheCursorAndTheFooter() {
        let list = list()
        var state = state(on: 1, in: list)
        state.scroll(height: 10, count: list.count)
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: 60, maxID: 3)
        let frame = renderer.frame(list: list, state: state, rows: 12)
        #expect(frame.count == 12)
        #expect(frame[0].hasPrefix("todo · 3 todos · sort: due"))
        #expect(frame.contains { $0.contains("Undone (2)") })
        #expect(frame.contains { $0.contains("Done (1)") })
        #expect(frame.filter { $0.contains("Buy milk") }.count == 2)  // in "All" and in the outline
        #expect(frame[11].contains("q quit"))
        #expect(frame.allSatisfy { $0.count <= 59 })
    }

    @Test(arguments: [16, 30, 60, 200])
    func theFooterAlwaysKeepsHelpAndQuit(columns: Int) {
        let hints = UIRenderer.keysHelp(width: columns - 1)
        #expect(hints.hasSuffix("? keys  q quit"))
        #expect(DisplayWidth.of(hints) <= max(columns - 1, 14))
    }

    @Test func anEmptyListSaysHowToAdd() {
        let list = list([])
        var state = state(on: 1, in: list)
        state.scroll(height: 8, count: list.count)
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: 60, maxID: 1)
        let frame = renderer.frame(list: list, state: state, rows: 10)
        #expect(frame.contains { $0.contains("press a to add one") })
        #expect(state.cursorID == .group(TodoGroup.undone.id))
    }

    // MARK: Prompt editing, suspend, the id column

    @Test func aPromptEditsLikeAShellLine() {
        var line = LineEditor("buy milk")
        func press(_ keys: Key...) {
            for key in keys {
                let handled = line.handle(key)
                #expect(handled, "\(key)")
            }
        }
        press(.home, .delete, .character("B"))
        #expect(line.text == "Buy milk" && line.beforeCursor == "B")
        press(.end, .left, .left, .left, .left, .character("o"), .character("a"), .character("t"), .character(" "))
        #expect(line.text == "Buy oat milk" && line.afterCursor == "milk")
        press(.control(1))  // Ctrl-A
        #expect(line.beforeCursor.isEmpty)
        press(.control(5), .control(23))  // Ctrl-E, Ctrl-W: the last word
        #expect(line.text == "Buy oat ")
        press(.control(23))  // then the blank and the word before it
        #expect(line.text == "Buy ")
        press(.left, .left, .clearLine)  // Ctrl-U: everything before the cursor
        #expect(line.text == "y " && line.beforeCursor.isEmpty)
        press(.backspace, .left)  // nothing before the cursor: no change, no trap
        #expect(line.text == "y ")
        press(.end, .right, .delete)  // nothing after it either
        #expect(line.text == "y ")
        // One key, one grapheme: an accent stays with its letter.
        var accented = LineEditor("cafe\u{301}")
        let erased = accented.handle(.backspace)
        #expect(erased && accented.text == "caf")
        let enter = accented.handle(.enter)
        #expect(!enter)
    }

    @Test func theCursorInsideAPromptIsShownWithoutMovingTheText() {
        var list = list()
        var state = state(on: 1, in: list)
        _ = press([.character("a")] + "Buy milk".map { Key.character($0) } + [.left, .left], &state, &list)
        var renderer = UIRenderer(style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: Self.today)
        renderer.configure(columns: 60, maxID: 3)
        let footer = renderer.frame(list: list, state: state, rows: 10)[9]
        #expect(footer == "New todo: Buy mi\u{1B}[7ml\u{1B}[0mk")
        _ = press([.end], &state, &list)
        #expect(renderer.frame(list: list, state: state, rows: 10)[9] == "New todo: Buy milk_")
    }

    @Test func ctrlZSuspendsFromAnyModeAndKeepsAPromptBeingTyped() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([26]) == [.suspend])
        var list = list()
        var state = state(on: 1, in: list)
        #expect(press([.suspend], &state, &list) == [.suspend])
        #expect(press([.character("a"), .character("X"), .suspend], &state, &list) == [.suspend])
        guard case .prompt(let prompt) = state.mode else {
            Issue.record("the prompt was dropped by Ctrl-Z")
            return
        }
        #expect(prompt.text == "X")
        #expect(!state.quitting)
    }

    @Test func theIDColumnNarrowsWhenTheWidestIDsLeave() {
        let wide = Todo(id: 10, TodoFields(name: "ten"))
        let before = TodoResultsSnapshot(order: .due, todos: Self.todos + [wide])
        let after = TodoResultsSnapshot(order: .due, todos: Self.todos)
        #expect(UIApp.maxID(after: after.snapshot.difference(from: before.snapshot), in: after, sizedFor: 10) == 3)
        // Deleting a narrower id keeps the width without scanning; an insert widens at once.
        let fewer = TodoResultsSnapshot(order: .due, todos: [wide])
        #expect(UIApp.maxID(after: fewer.snapshot.difference(from: before.snapshot), in: fewer, sizedFor: 10) == 10)
        #expect(UIApp.maxID(after: before.snapshot.difference(from: after.snapshot), in: before, sizedFor: 3) == 10)
    }
}

/// Issue 25, bug 9: at 40 columns the ui cut the delete prompt's `[y/N]`, the deadline
/// prompt's label, and the help page's rows.
@Suite(.timed) struct UIFortyColumnsUnitTests {
    private func renderer() -> UIRenderer {
        var renderer = UIRenderer(
            style: TextStyle.resolve(option: "never", stdoutIsTerminal: false), today: UIUnitTests.today)
        renderer.configure(columns: 40, maxID: 3)
        return renderer
    }

    private func state(_ mode: UIState.Mode) -> UIState {
        var state = UIState(order: .due, searches: [])
        state.mode = mode
        return state
    }

    @Test func theDeletePromptShortensTheNameNeverItsKeys() {
        let todo = Todo(id: 1, TodoFields(name: "Renew the passport before the trip to Lisbon in the spring"))
        let footer = renderer().footerLines(state: state(.confirmDelete(todo)), rows: 20)
        #expect(footer == ["Delete \"Renew the passport bef…\"? [y/N]"])
        #expect(footer.allSatisfy { DisplayWidth.of($0) <= 39 })
    }

    @Test func theDeadlinePromptKeepsItsLabelAndWrapsWhatItAccepts() {
        var prompt = UIState.Prompt(purpose: .addDeadline(name: "Tea"), text: "")
        _ = prompt.line.handle(.character("x"))
        let footer = renderer().footerLines(state: state(.prompt(prompt)), rows: 20)
        #expect(footer.last == "Deadline: x_")
        #expect(footer.dropLast().joined(separator: " ") == "(YYYY-MM-DD, tomorrow, fri, +3d; empty: none)")
        #expect(footer.allSatisfy { DisplayWidth.of($0) <= 39 })
    }

    @Test func theHelpPageWrapsItsRowsAndScrollsToItsEnd() {
        let page = UIRenderer.keysPage(width: 39)
        #expect(page.allSatisfy { DisplayWidth.of($0) <= 39 })
        // Every meaning is there whole, across its lines.
        let text = page.map { $0.trimmingSpaces }.joined(separator: " ")
        for (_, meaning) in UIRenderer.keyMeanings { #expect(text.contains(meaning)) }
        let renderer = renderer()
        let last = renderer.helpLastTop(rows: 20)
        #expect(last == page.count - 18)
        var list = UIList(TodoResultsSnapshot(order: .due, todos: UIUnitTests.todos), order: .due)
        var state = state(.help(top: 0))
        let context = UIReducer.Context(page: 17, today: UIUnitTests.today, helpLastTop: last)
        _ = UIReducer.reduce(&state, .down, list: &list, context: context)
        guard case .help(1) = state.mode else {
            Issue.record("j did not scroll: \(state.mode)")
            return
        }
        _ = UIReducer.reduce(&state, .end, list: &list, context: context)
        guard case .help(last) = state.mode else {
            Issue.record("End did not scroll to the end")
            return
        }
        _ = UIReducer.reduce(&state, .character("j"), list: &list, context: context)
        guard case .help(last) = state.mode else {
            Issue.record("scrolled past the end")
            return
        }
        #expect(renderer.footerLines(state: state, rows: 20) == ["↑↓ jk scroll · other keys return"])
        _ = UIReducer.reduce(&state, .character("x"), list: &list, context: context)
        guard case .browsing = state.mode else {
            Issue.record("x did not leave help")
            return
        }
    }
}
