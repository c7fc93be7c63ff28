import Foundation

/// Whether a folder can be seen by the other nodes of a cluster: chunk workers on any node write into it and the
/// stitch job reads from it, so it must be on a shared filesystem.
public struct FilesystemCheck: Sendable {
    public enum Verdict: Sendable {
        /// A network or cluster filesystem (NFS, Lustre, GPFS, CephFS, BeeGFS, SMB, …).
        case shared
        /// A local disk: other nodes see it only if it is exported to them.
        case localDisk
        /// Memory or a node-local scratch path (tmpfs, /tmp, /dev/shm, /run): other nodes cannot see it.
        case nodeLocal
    }
    public let path: String
    public let verdict: Verdict
    /// The filesystem type as the kernel names it ("nfs4", "tmpfs", "ext4", "overlay").
    public let type: String

    /// Looks at the filesystem holding `path` (the nearest existing folder above it): its type from the kernel's
    /// mount table (`/proc/self/mounts`, longest matching mount point).
    public init(path: String) {
        var p = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        while !FileManager.default.fileExists(atPath: p) && p != "/" { p = (p as NSString).deletingLastPathComponent }
        self.path = p
        let name = FilesystemCheck.mountType(of: p)
        let network: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "lustre", "gpfs", "ceph", "beegfs", "afs",
                                    "glusterfs", "fuse.glusterfs", "fuse.sshfs", "fuse.juicefs", "fuse.cephfs", "9p", "virtiofs", "wekafs"]
        let memory: Set<String> = ["tmpfs", "ramfs", "devtmpfs"]
        let verdict: Verdict = network.contains(name) ? .shared : memory.contains(name) ? .nodeLocal : .localDisk
        type = name
        let scratch = ["/tmp", "/var/tmp", "/dev/shm", "/run"]
        if verdict != .shared && scratch.contains(where: { p == $0 || p.hasPrefix($0 + "/") }) {
            self.verdict = .nodeLocal
        } else {
            self.verdict = verdict
        }
    }

    /// The type of the filesystem mounted at the longest mount point above `path` ("unknown" without a mount table).
    static func mountType(of path: String) -> String {
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return "unknown" }
        var best = (length: -1, type: "unknown")
        for line in table.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 3 else { continue }
            // Spaces and other characters in mount points are octal escapes (\040).
            let mount = String(f[1]).replacingOccurrences(of: "\\040", with: " ")
            let inside = mount == "/" || path == mount || path.hasPrefix(mount + "/")
            if inside && mount.count >= best.length { best = (mount.count, String(f[2])) }
        }
        return best.type
    }

    /// The finding in words.
    public var explanation: String {
        switch verdict {
        case .shared: return "\(path) is on a shared filesystem (\(type))"
        case .localDisk: return "\(path) is on a local filesystem (\(type)): other nodes see it only if it is exported to them (NFS)"
        case .nodeLocal: return "\(path) is node-local (\(type)): other nodes cannot see it"
        }
    }
}
