import Foundation
import PackagePlugin

/// Build-tool plugin of the `SegueShaders` target: indexes every file of its `glsl/` folder (which `Package.swift`
/// embeds whole with `.embedInCode("glsl")`) as `shaderFiles: [String: [UInt8]]`, keyed by file name, so that a new
/// shader file is found by name without being listed anywhere.
@main
struct EmbedShaderFolder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directory.appending("glsl")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.string).filter { !$0.hasPrefix(".") }.sorted()
        let output = context.pluginWorkDirectory.appending("ShaderFiles.swift")
        return [.buildCommand(displayName: "Indexing \(names.count) shader files",
                              executable: try context.tool(named: "EmbedShaderFolderTool").path,
                              arguments: [folder.string, output.string],
                              inputFiles: names.map { folder.appending($0) }, outputFiles: [output])]
    }
}
