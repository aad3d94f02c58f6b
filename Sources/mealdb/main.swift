import CommandLine

await ToolMain.run(MealDBTool.definition) { context in
    try await MealDBSession(context: context).run()
}
