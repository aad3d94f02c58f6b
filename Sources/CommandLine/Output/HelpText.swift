/// Renders `--help` for a tool or one of its commands from the declarations.
struct HelpText {
    let tool: Tool
    let width: Int

    func render(_ command: Command?) -> String {
        guard let command else { return renderTool() }
        return renderCommand(command)
    }

    private func renderTool() -> String {
        var sections: [String] = []
        sections.append(TextLayout.wrap("\(tool.name) \(tool.version) — \(tool.summary)", width: width))
        sections.append("Usage: \(tool.name) <command> [arguments] [options]")
        let commands = tool.commands.map { command in
            [
                ([command.name, command.argumentSynopsis].filter { !$0.isEmpty }).joined(separator: " "),
                command.summary,
            ]
        }
        sections.append("Commands:\n" + TextLayout.columns(commands, width: width, indent: 2))
        sections.append("Options (for every command):\n" + optionList(tool.options + Tool.builtInOptions))
        sections.append(
            "Options may stand before or after the command and its arguments; '--' ends them.\n"
                + "Run '\(tool.name) <command> --help' for a command's arguments and options.")
        if let epilogue = tool.epilogue { sections.append(epilogue) }
        return sections.joined(separator: "\n\n") + "\n"
    }

    private func renderCommand(_ command: Command) -> String {
        var sections: [String] = []
        let synopsis = [tool.name, command.name, command.argumentSynopsis, "[options]"].filter { !$0.isEmpty }
        sections.append("Usage: " + synopsis.joined(separator: " "))
        sections.append(TextLayout.wrap(command.summary, width: width))
        if let discussion = command.discussion { sections.append(TextLayout.wrap(discussion, width: width)) }
        if !command.positionals.isEmpty {
            let rows = command.positionals.map { [$0.name, $0.help + ($0.isOptional ? " (optional)" : "")] }
            sections.append("Arguments:\n" + TextLayout.columns(rows, width: width, indent: 2))
        }
        if !command.options.isEmpty {
            sections.append("Options:\n" + optionList(command.options))
        }
        sections.append("Options for every command:\n" + optionList(tool.options + Tool.builtInOptions))
        if !command.examples.isEmpty {
            sections.append("Examples:\n" + command.examples.map { "  " + $0 }.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    private func optionList(_ options: [Option]) -> String {
        let rows = options.map { option in
            [option.signature, option.help + (option.kind == .repeatable ? " (repeatable)" : "")]
        }
        return TextLayout.columns(rows, width: width, indent: 2)
    }
}
