#ifndef SEGUE_CZIP_SHIM_H
#define SEGUE_CZIP_SHIM_H
// libzip, imported by SegueMedia only (ZipArchive): reading .otioz bundles (OpenTimelineIO's zip of content.otio and
// media/), with its consistency and CRC checks, so that Segue parses no zip structure itself.
#include <zip.h>
#endif
