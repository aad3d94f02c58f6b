extension Tool {
    /// Parses a command line (without the executable's name) against the declarations.
    ///
    /// Options may stand before or after the command and its arguments; `--` ends options, so what follows is
    /// positional even when it starts with a dash. Option values are taken as `--name value` or `--name=value`;
    /// the word after an option that takes a value is always its value (so `--from -500` works).
    /// - Parameter width: the column at which help text wraps.
    public func parse(_ arguments: [String], width: Int = 80) throws(UsageError) -> ParseOutcome {
        var scan = Scan(tool: self)
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if scan.optionsEnded || word == "-" || !word.hasPrefix("-") {
                try scan.positional(word)
            } else if word == "--" {
                scan.optionsEnded = true
            } else {
                let (option, inlineValue) = try scan.option(word)
                guard let option else { continue }
                var value = inlineValue
                if option.takesValue, value == nil {
                    guard index < arguments.count else {
                        throw scan.error(
                            ToolText.sentence(
                                "usage.needsValue", ["option": option.name, "valueName": option.valueName]))
                    }
                    value = arguments[index]
                    index += 1
                }
                try scan.record(option, value: value)
            }
        }

        if scan.wantsHelp {
            return .help(HelpText(tool: self, width: width).render(scan.helpTopic ?? scan.command))
        }
        if scan.wantsVersion { return .version("\(name) \(version)") }
        return .run(try scan.finish())
    }
}

/// The parser's state while it walks the words of a command line.
private struct Scan {
    let tool: Tool
    var command: Command?
    var helpTopic: Command?
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    /// Options met before the command was known, checked against it at the end.
    var pending: [Option] = []
    var optionsEnded = false
    var wantsHelp = false
    var wantsVersion = false
    var sawHelpCommand = false

    init(tool: Tool) { self.tool = tool }

    var helpCommand: String { command.map { "\(tool.name) \($0.name)" } ?? tool.name }

    func error(_ problem: String) -> UsageError { UsageError(problem, helpCommand: helpCommand) }

    mutating func positional(_ word: String) throws(UsageError) {
        if sawHelpCommand, helpTopic == nil {
            guard let topic = tool.command(named: word) else { throw unknownCommand(word) }
            helpTopic = topic
            return
        }
        if command == nil, !tool.commands.isEmpty, !sawHelpCommand {
            if word == "help" {
                sawHelpCommand = true
                wantsHelp = true
                return
            }
            guard let found = tool.command(named: word) else { throw unknownCommand(word) }
            command = found
            return
        }
        positionals.append(word)
    }

    /// Resolves an option word; returns `nil` for the built-ins it handles itself.
    mutating func option(_ word: String) throws(UsageError) -> (Option?, String?) {
        var name: String
        var inlineValue: String?
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
        } else {
            let letters = word.dropFirst()
            guard letters.count == 1, let letter = letters.first else {
                throw error(ToolText.sentence("usage.unknownShortOption", ["word": UsageError.echo(word)]))
            }
            if letter == "h" {
                name = "help"
            } else if let match = (tool.options(for: command) + tool.commands.flatMap(\.options)).first(where: {
                $0.short == letter
            }) {
                name = match.name
            } else {
                throw error(ToolText.sentence("usage.unknownOption", ["word": UsageError.echo(word)]))
            }
        }
        if name == "help" || name == "version" {
            guard inlineValue == nil else { throw error(ToolText.sentence("usage.takesNoValue", ["option": name])) }
            if name == "help" { wantsHelp = true } else { wantsVersion = true }
            return (nil, nil)
        }
        if let known = tool.options(for: command).first(where: { $0.name == name }) {
            return (known, inlineValue)
        }
        // Before the command is known, accept any command's option and check it once the command is known.
        if command == nil, let later = tool.commands.lazy.flatMap(\.options).first(where: { $0.name == name }) {
            pending.append(later)
            return (later, inlineValue)
        }
        let known = (tool.options(for: command) + Tool.builtInOptions).map(\.name)
        let hint =
            Suggestion.closest(to: name, among: known).map { ToolText.sentence("usage.didYouMeanOption", ["name": $0]) }
            ?? ""
        throw error(ToolText.sentence("usage.unknownLongOption", ["name": UsageError.echo(name), "hint": hint]))
    }

    mutating func record(_ option: Option, value: String?) throws(UsageError) {
        switch option.kind {
        case .flag:
            guard value == nil else { throw error(ToolText.sentence("usage.takesNoValue", ["option": option.name])) }
            flags.insert(option.name)
        case .value, .repeatable:
            values[option.name, default: []].append(value ?? "")
        }
    }

    func unknownCommand(_ word: String) -> UsageError {
        let hint =
            Suggestion.closest(to: word, among: tool.commands.map(\.name)).map {
                ToolText.sentence("usage.didYouMeanCommand", ["name": $0])
            } ?? ""
        return UsageError(
            ToolText.sentence("usage.unknownCommand", ["word": UsageError.echo(word), "hint": hint]),
            helpCommand: tool.name)
    }

    func finish() throws(UsageError) -> Invocation {
        if command == nil, !tool.commands.isEmpty {
            throw UsageError(ToolText.sentence("usage.missingCommand"), helpCommand: tool.name)
        }
        let accepted = Set(tool.options(for: command).map(\.name))
        if let stray = pending.first(where: { !accepted.contains($0.name) }) {
            throw error(ToolText.sentence("usage.noSuchOption", ["command": helpCommand, "option": stray.name]))
        }
        let declared = command?.positionals ?? []
        if positionals.count > declared.count {
            let extra = positionals[declared.count]
            throw error(ToolText.sentence("usage.unexpectedArgument", ["argument": UsageError.echo(extra)]))
        }
        var arguments: [String: String] = [:]
        for (position, positional) in declared.enumerated() {
            if position < positionals.count {
                arguments[positional.name] = positionals[position]
            } else if !positional.isOptional {
                throw error(ToolText.sentence("usage.missingArgument", ["name": positional.name]))
            }
        }
        return Invocation(tool: tool, command: command, arguments: arguments, values: values, flags: flags)
    }
}
