import RaceLabEngine
import RaceLabLanguage
import Testing

/// One small script per diagnostic the lexer, parser, compiler and scenario loader
/// can give: each must be reported at the right place, with its exact wording.
struct DiagnosticMessageTests {
    static let cases: [(source: String, expected: String)] = [
        (
            "let a = [1]\nthread A { a.append(2) }",
            "2:12: cannot change 'a': it is a 'let' constant (declare it with 'var')"
        ),
        (
            "thread A {\n let a = [1]\n a[0] = 2 }",
            "3:2: cannot change 'a': it is a 'let' constant (declare it with 'var')"
        ),
        (
            "class C { let items = [1] }\nlet c = C()\nthread A { c.items.removeLast() }",
            "3:12: cannot change 'items': it is a 'let' field of C"
        ),
        (
            "var x = 99999999999999999999999",
            "1:9: integer literal '99999999999999999999999' is too large"
        ),
        (
            "@ class C {}",
            "1:1: expected an attribute name after '@'"
        ),
        (
            "var x = 1 $",
            "1:11: unexpected character '$'"
        ),
        (
            "/* open",
            "1:1: unterminated comment"
        ),
        (
            "var s = \"open",
            "1:9: unterminated string literal"
        ),
        (
            "var s = \"\"\"\nopen",
            "1:9: unterminated multi-line string literal"
        ),
        (
            "var s = \"a\\q\"",
            "1:12: unknown escape sequence '\\q'"
        ),
        (
            "thread A {\n    let x\n}",
            "2:10: a 'let' needs a value: expected '='"
        ),
        (
            "thread A {\n    for i 0..<3 { }\n}",
            "2:11: expected 'in' after the loop variable, found '0'"
        ),
        (
            "@shared class C {}",
            "1:1: unknown attribute '@shared'"
        ),
        (
            "@mainThreadOnly var x = 1",
            "1:17: '@mainThreadOnly' must come before a class, found 'var'"
        ),
        (
            "fix a {\n    fix b {\n    }\n}",
            "2:5: a fix cannot contain another fix"
        ),
        (
            "thread A {}\nfix a {\n    remove lock A\n}",
            "3:12: expected what to remove: 'thread', 'func', 'var', 'class' or 'schedule', found 'lock'"
        ),
        (
            "thred A {}",
            "1:1: expected a declaration, found 'thred' (note: did you mean 'thread'?)"
        ),
        (
            "42",
            "1:1: expected a declaration, found '42'"
        ),
        (
            "class C {\n    deinit {}\n    deinit {}\n}",
            "3:5: a class has at most one deinit"
        ),
        (
            "class C {\n    func f() {}\n}",
            "2:5: a class's methods are its init and deinit; 'func f' belongs outside it (or subclass Operation to override main())"
        ),
        (
            "var b = 1 < 2 < 3",
            "1:17: comparisons cannot be chained; use '&&'"
        ),
        (
            "var a = [1]\nvar n = a.",
            "2:11: expected a member name after '.', found end of line"
        ),
        (
            "var x = )",
            "1:9: expected an expression, found ')'"
        ),
        (
            "thread A { var x = 1 var y = 2 }",
            "1:22: expected end of statement, found 'var'"
        ),
        (
            "thread A {\n    main.later { }\n}",
            "2:5: the main queue has 'async' and 'sync', not 'later'"
        ),
        (
            "thread A {\n    3()\n}",
            "2:5: this expression cannot be called"
        ),
        (
            "thread A {\n    spawn B\n}",
            "2:12: expected '{' to start the thread's code, found end of line"
        ),
        (
            "func f(a) {}\nthread A {\n    f()\n}",
            "3:5: 'f' takes 1 argument, not 0"
        ),
        (
            "func f(a) {}\nthread A {\n    f(1) { }\n}",
            "3:5: 'f' does not take a closure"
        ),
        (
            "class C {\n    var v = 0\n}\nthread A {\n    let c = C(w: 1)\n}",
            "5:18: 'C' has no field 'w'"
        ),
        (
            "class C {\n    var v = 0\n}\nthread A {\n    let c = C(v: 1, v: 2)\n}",
            "5:24: field 'v' is given twice"
        ),
        (
            "thread A {\n    work(n: 1)\n}",
            "2:13: unexpected argument label 'n'"
        ),
        (
            "thread A {\n    let m = \"x\"\n    assert(true, m)\n}",
            "3:18: an assertion's message must be a string literal"
        ),
        (
            "expect created(1) == 1, \"x\"",
            "1:16: 'created' takes a class name, like created(MySingle)"
        ),
        (
            "let q = OperationQueue(2)",
            "1:24: write OperationQueue(maxConcurrentOperationCount: n)"
        ),
        (
            "let o = Operation(name: \"x\")",
            "1:9: an operation needs its work as a closure: Operation(name: \"A\") { op in … }"
        ),
        (
            "let o = Operation(\"x\") { op in }",
            "1:19: write Operation(name: \"A\") { op in … } or Operation(name: \"A\", isAsynchronous: true) { op in … }"
        ),
        (
            "thread A {\n    [1].append(2)\n}",
            "2:5: 'append' needs a variable or a field to change"
        ),
        (
            "var a = [1]\nthread A {\n    a.remove(of: 0)\n}",
            "3:18: write remove(at: index)"
        ),
        (
            "var a = [1]\nthread A {\n    a.insert(0, 1, 2)\n}",
            "3:5: 'insert' takes 2 arguments, not 3"
        ),
        (
            "var a = [1]\nthread A {\n    a.shuffle()\n}",
            "3:5: unknown method 'shuffle'"
        ),
        (
            "thread A {\n    let op = Operation(name: \"one\") { op in work(1) }\n    let p = op.isPaused\n}",
            "3:13: unknown property 'isPaused': no class declares it, and no built-in type has it"
        ),
        (
            "thread A {\n    let op = Operation(name: \"one\") { op in work(1) }\n    let p = op.isCanceled\n}",
            "3:13: unknown property 'isCanceled': no class declares it, and no built-in type has it (note: did you mean 'isCancelled'?)"
        ),
        (
            "class Box { var size = 0 }\nlet b = Box()\nthread A {\n    b.sise = 2\n}",
            "4:5: unknown property 'sise': no class declares it, and no built-in type has it (note: did you mean 'size'?)"
        ),
        (
            "thread A {\n    singelton = 1\n}\nvar singleton = 0",
            "2:5: unknown name 'singelton' (note: did you mean 'singleton'?)"
        ),
        (
            "func f() {}\nthread A {\n    let g = f\n}",
            "3:13: 'f' is a function: call it with 'f(…)'"
        ),
        (
            "class C {}\nthread A {\n    let c = C\n}",
            "3:13: 'C' is a class: create one with 'C()'"
        ),
        (
            "thread A {\n    let m = main\n}",
            "2:13: 'main' is the main thread: use 'main.async { … }' or 'main.sync { … }'"
        ),
        (
            "thread A {\n    let s = self\n}",
            "2:13: 'self' is only available in a class's deinit, init or methods"
        ),
        (
            "func f(a) {}\nthread A {\n    f({ })\n}",
            "3:7: a closure can only be passed to spawn, main.async, main.sync, Operation or addOperation"
        ),
        (
            "thread A {\n    spawn B { }\n    let c = 1\n    spawn C(c) \n}",
            "4:12: expected '{' to start the thread's code, found '('"
        ),
        (
            "thread A {}\nthread A {}",
            "2:8: thread 'A' is declared twice"
        ),
        (
            "var f = 1\nfunc f() {}",
            "2:6: 'f' is already declared as a variable"
        ),
        (
            "var work = 1",
            "1:5: 'work' is a built-in name and cannot be redeclared"
        ),
        (
            "class C {\n    var count = 0\n}",
            "2:9: 'count' is reserved for arrays and dictionaries and cannot name a field"
        ),
        (
            "actor Box {\n    var items: [Int] = []\n    func append(v) {\n        items.append(v)\n    }\n}",
            "3:5: 'append' is an array's, a set's or a dictionary's method and cannot name a method of Box: call it, say, 'appendItem'"
        ),
        (
            "@MainActor class Model {\n    var n = 0\n    func contains(v) -> Bool {\n        return n == v\n    }\n}",
            "3:5: 'contains' is an array's, a set's or a dictionary's method and cannot name a method of Model: call it, say, 'containsItem'"
        ),
        (
            "var y = 1\nclass C {\n    var v = y\n}",
            "3:13: a field's default must be a literal; pass other values when creating: C(v: …)"
        ),
        (
            "thread A {\n    { }\n}",
            "2:5: a closure on its own does nothing; pass it to spawn, main.async, an Operation or addOperation"
        ),
        (
            "class C {\n    deinit {\n        return 1\n    }\n}",
            "3:9: deinit cannot return a value"
        ),
        (
            "thread A {\n    break\n}",
            "2:5: 'break' outside a loop"
        ),
        (
            "thread A {\n    spawn main { }\n}",
            "2:5: 'main' is the main thread; spawn a thread with another name"
        ),
        (
            "thread A {\n    var x = 0\n    spawn B { x = 1 }\n}",
            "3:15: cannot assign to 'x': closures capture values, not variables; use a shared variable or an object's field"
        ),
        (
            "let x = 0\nthread A {\n    x = 1\n}",
            "3:5: cannot assign to 'x': it is a 'let' constant"
        ),
        (
            "thread A {\n    let x = 0\n    x = 1\n}",
            "3:5: cannot assign to 'x': it is a 'let' constant"
        ),
        (
            "class C {\n    let v = 0\n}\nthread A {\n    let c = C()\n    c.v = 1\n}",
            "6:5: cannot assign to 'v': it is a 'let' field of C"
        ),
        (
            "func f() -> Int { return 1 }\nthread A {\n    f()[0] = 1\n}",
            "3:5: only a variable or a field can be assigned through a subscript"
        ),
        (
            "thread A {\n    1 = 2\n}",
            "2:5: cannot assign to this expression"
        ),
        (
            "class C {\n    var v = 0\n}\nthread A {\n    let c = C()\n    c.v = { }\n}",
            "6:11: a closure can only be stored in an operation's completionBlock"
        ),
        (
            "fix a {\n}\nfix a {\n}",
            "3:5: fix 'a' is declared twice"
        ),
        (
            "fix a {\n    title \"x\"\n}",
            "2:5: a fix may set 'summary', 'fails', 'variant' or the model (scheduling, wakeups, memory, mailbox, pool, upcoming), not 'title'"
        ),
        (
            "var x = 0\nfix a {\n    expect x == 0, \"m\"\n}",
            "3:5: a fix cannot change the checks: move this expect out of the fix"
        ),
        (
            "fix a {\n    remove thread B\n}",
            "2:19: the base scenario has no thread 'B' to remove"
        ),
        (
            "summary \"x\"",
            "1:1: 'summary' belongs inside a fix"
        ),
        (
            "remove thread A",
            "1:1: 'remove' belongs inside a fix: fix NAME { remove thread A }"
        ),
    ]

    @Test(arguments: cases)
    func firstDiagnostic(source: String, expected: String) {
        do {
            _ = try Scenario.load(name: "test", file: SourceFile(name: "test.race", text: source + "\n"))
            Issue.record("no error for: \(source)")
        } catch {
            let first = error.diagnostics.min { ($0.range.start.line, $0.range.start.column) < ($1.range.start.line, $1.range.start.column) }!
            let location = "\(first.range.start.line):\(first.range.start.column)"
            #expect("\(location): \(first.message)" + (first.note.map { " (note: \($0))" } ?? "") == expected)
        }
    }
}
