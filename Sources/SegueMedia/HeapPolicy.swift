import CFFmpeg

/// Whether renders repeat byte for byte inside one process (a server or a tool that renders many edits).
///
/// libx264's lookahead reads some heap memory it has not written (measured: byte-identical input frames and
/// parameters, yet about a third of the renders that followed GPU work in the same process came out with other bits;
/// in a fresh process, where that memory is fresh zero pages, every render repeats; `rc-lookahead=0:mbtree=0` also
/// made it repeat). With `zeroFilledAllocations`, glibc fills every new heap block with zeros (`mallopt(M_PERTURB,
/// 0xff)`: new blocks get `~0xff`, freed ones `0xff`), so a render sees what a fresh process sees and gives the same
/// bytes as a fresh `segue render` of the same edit, however many renders came before. The cost is memory: blocks
/// are written when allocated, so pages libx264 reserves but never touches become resident (+175 MB peak at 1080p
/// with x264 `medium`) and a little time.
///
/// On (the default) for library use; the `segue` command turns it off, since each of its processes renders once
/// (a smart render, which opens an encoder per encoded stretch, turns it on: `zeroFillFromNow`).
/// Set it before the first file is opened (it takes effect then, process-wide).
public enum HeapPolicy {
    // nonisolated(unsafe): set before the first file is opened and read once then (`FF.setup`), on one thread.
    nonisolated(unsafe) public static var zeroFilledAllocations = true

    /// Turns zero-filled allocations on from now to the end of the process, whatever `zeroFilledAllocations` said:
    /// for a process that opens more than one encoder (a smart render encodes each stretch with an encoder of its
    /// own, `RenderJob.smartEncode`), whose later libx264 would otherwise get blocks the earlier ones freed and write
    /// other bits from run to run. Blocks allocated before stay as they are; every one allocated after starts as zeros.
    public static func zeroFillFromNow() { segue_malloc_perturb(0xff) }
}
