import CommandLine
import MuseumFeature

await ToolMain.run(
    MetTool.definition, classify: { error in MuseumWording.classifyOwn(error).map(Failure.init) },
    body: { context in try await MetSession(context: context).run() })
