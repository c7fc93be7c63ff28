import Foundation
import PackagePlugin

/// Build-tool plugin of the `SegueShaders` target: indexes every file of its `glsl/` folder (which `Package.swift`
/// embeds whole with `.embedInCode("glsl")`) as `shaderFiles: [String: [UInt8]]`, keyed by file name, so that a new
/// shader file is found by name without being listed anywhere.
@main
struct EmbedShaderFolder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let folder = target.directoryURL.appending(path: "glsl")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path()).filter { !$0.hasPrefix(".") }.sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "ShaderFiles.swift")
        return [.buildCommand(displayName: "Indexing \(names.count) shader files",
                              executable: try context.tool(named: "EmbedShaderFolderTool").url,
                              arguments: [folder.path(), output.path()],
                              inputFiles: names.map { folder.appending(path: $0) }, outputFiles: [output])]
    }
}
