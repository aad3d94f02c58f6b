import CommandLine
import Testing

/// A small tool shaped like the real ones, declared once for every parser test.
let sampleTool = Tool(
    name: "sample", version: "9.9.9", summary: "A tool for parser tests.",
    options: [
        .flag("json", help: "Print JSON."),
        .value("timeout", "SECONDS", help: "Per-request timeout."),
        .value("base-url", "URL", help: "Server root."),
    ],
    commands: [
        Command(
            "show", summary: "Show one item.", positionals: [Positional("ID", help: "The item's id.")],
            examples: ["sample show 52771"]),
        Command(
            "search", summary: "Search items.", positionals: [Positional("QUERY", help: "What to look for.")],
            options: [
                .repeatable("department", "ID", help: "Only this department."),
                .value("from", "YEAR", help: "Earliest year."),
                .flag("highlight", help: "Only highlights."),
            ]),
        Command("random", summary: "A random item."),
        Command(
            "list", summary: "List items.", positionals: [Positional("PREFIX", help: "A prefix.", isOptional: true)]),
    ])

func invocation(_ arguments: [String]) throws -> Invocation {
    guard case .run(let invocation) = try sampleTool.parse(arguments) else {
        Issue.record("expected a command to run for \(arguments)")
        throw UsageError("not a run", helpCommand: "sample")
    }
    return invocation
}

func usageError(_ arguments: [String]) -> UsageError? {
    do {
        _ = try sampleTool.parse(arguments)
        return nil
    } catch {
        return error
    }
}

@Suite("Argument parsing")
struct ParserTests {
    @Test("options before and after the command are the same call")
    func optionsAnywhere() throws {
        let before = try invocation(["--json", "show", "52771"])
        let after = try invocation(["show", "52771", "--json"])
        #expect(before == after)
        #expect(after.command?.name == "show")
        #expect(after.argument("ID") == "52771")
        #expect(after.flag("json"))
    }

    @Test("values as --name value and --name=value")
    func valueForms() throws {
        #expect(try invocation(["random", "--timeout", "0.5"]).value("timeout") == "0.5")
        #expect(try invocation(["random", "--timeout=0.5"]).value("timeout") == "0.5")
        #expect(
            try invocation(["random", "--base-url=http://127.0.0.1:8080/"]).value("base-url")
                == "http://127.0.0.1:8080/")
    }

    @Test("decimal seconds")
    func decimals() throws {
        #expect(try invocation(["random", "--timeout", "0.5"]).seconds("timeout") == .milliseconds(500))
        #expect(try invocation(["random", "--timeout", "2"]).seconds("timeout") == .seconds(2))
        #expect(try invocation(["random"]).seconds("timeout") == nil)
        for bad in ["0", "-1", "abc", "nan", "inf", ""] {
            #expect(throws: UsageError.self) { try invocation(["random", "--timeout", bad]).seconds("timeout") }
        }
    }

    @Test("repeated options keep every value in order")
    func repeated() throws {
        let parsed = try invocation(["search", "cat", "--department", "1", "--department=3"])
        #expect(parsed.allValues("department") == ["1", "3"])
        #expect(try parsed.integers("department") == [1, 3])
    }

    @Test("a command's option may come before the command")
    func commandOptionBeforeCommand() throws {
        let parsed = try invocation(["--department", "4", "search", "cat"])
        #expect(parsed.allValues("department") == ["4"])
        let error = usageError(["--department", "4", "show", "1"])
        #expect(error?.description.contains("'sample show' has no option '--department'") == true)
    }

    @Test("the word after a value option is its value even when it starts with a dash")
    func negativeValue() throws {
        #expect(try invocation(["search", "cat", "--from", "-500"]).value("from") == "-500")
    }

    @Test("-- ends options")
    func doubleDash() throws {
        let parsed = try invocation(["search", "--json", "--", "--not-an-option"])
        #expect(parsed.argument("QUERY") == "--not-an-option")
        #expect(parsed.flag("json"))
    }

    @Test("optional positionals")
    func optionalPositional() throws {
        #expect(try invocation(["list"]).argument("PREFIX") == nil)
        #expect(try invocation(["list", "ab"]).argument("PREFIX") == "ab")
    }

    @Test(
        "usage errors name the problem and point to --help",
        arguments: [
            (["bogus"], "unknown command 'bogus'", "sample --help"),
            (["shwo", "1"], "did you mean 'show'?", "sample --help"),
            ([], "missing command", "sample --help"),
            (["show"], "missing argument ID", "sample show --help"),
            (["show", "1", "2"], "unexpected argument '2'", "sample show --help"),
            (["show", "1", "--bogus"], "unknown option '--bogus'", "sample show --help"),
            (["show", "1", "--jsn"], "did you mean '--json'?", "sample show --help"),
            (["show", "1", "--timeout"], "--timeout needs a value (SECONDS)", "sample show --help"),
            (["show", "1", "--json=yes"], "--json takes no value", "sample show --help"),
            (["show", "1", "-x"], "unknown option '-x'", "sample show --help"),
            (["show", "1", "-json"], "long options start with two dashes", "sample show --help"),
        ])
    func usageErrors(arguments: [String], problem: String, help: String) {
        let error = usageError(arguments)
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("See '\(help)'.") == true, "\(String(describing: error))")
    }

    @Test("typed values that do not parse are usage errors")
    func malformedIntegers() throws {
        let parsed = try invocation(["search", "cat", "--department", "x"])
        #expect(throws: UsageError.self) { try parsed.integers("department") }
        let show = try invocation(["show", "12a"])
        let error = #expect(throws: UsageError.self) { try show.integerArgument("ID", in: 1...Int.max) }
        #expect(error?.problem == "ID expects a whole number, not '12a'")
        let negative = try invocation(["show", "0"])
        #expect(throws: UsageError.self) { try negative.integerArgument("ID", in: 1...Int.max) }
    }

    @Test("--help and -h on the tool, on a command, and as help COMMAND")
    func help() throws {
        guard case .help(let tool) = try sampleTool.parse(["--help"]) else { Issue.record("no help"); return }
        #expect(tool.contains("Usage: sample <command>"))
        #expect(tool.contains("show ID"))
        #expect(tool.contains("--timeout SECONDS"))
        guard case .help(let command) = try sampleTool.parse(["search", "-h"]) else { Issue.record("no help"); return }
        #expect(command.contains("Usage: sample search QUERY [options]"))
        #expect(command.contains("--department ID"))
        #expect(command.contains("(repeatable)"))
        #expect(try sampleTool.parse(["help", "search"]) == .help(command))
        guard case .help(let withExamples) = try sampleTool.parse(["show", "--help"]) else { return }
        #expect(withExamples.contains("Examples:\n  sample show 52771"))
    }

    @Test("--help wins over missing arguments; --version prints one line")
    func helpAndVersion() throws {
        guard case .help = try sampleTool.parse(["show", "--help"]) else { Issue.record("no help"); return }
        #expect(try sampleTool.parse(["--version"]) == .version("sample 9.9.9"))
        #expect(try sampleTool.parse(["show", "1", "--version"]) == .version("sample 9.9.9"))
    }

    @Test("help text fits the width")
    func helpWraps() throws {
        guard case .help(let text) = try sampleTool.parse(["--help"], width: 50) else { return }
        for line in text.split(separator: "\n") where !line.contains("--base-url URL") {
            #expect(line.count <= 80)
        }
    }
}
