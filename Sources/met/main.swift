import CommandLine
import MetMuseum

await ToolMain.run(MetTool.definition, classify: { error in (error as? MetError).map(Failure.init) }) { context in
    try await MetSession(context: context).run()
}
