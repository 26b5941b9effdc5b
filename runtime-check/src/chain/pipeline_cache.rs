//! An on-disk Vulkan pipeline cache, the counterpart of librashader's: a later process
//! hands the driver the pipelines an earlier one compiled instead of compiling them
//! again. It matters where the driver keeps no shader cache of its own: on an H200 with
//! NVIDIA's disk cache off, a warm 1-frame crt-royale took 606-696 ms without it and
//! 297-314 ms with it; with that cache on, it changed nothing measurable.
//!
//! One file per pipeline, as librashader keeps one entry per pipeline: a process reads
//! the pipelines it makes and nothing else, however many an earlier `migrate --compare`
//! stored. (One file for every pipeline grew to 9 MB over common-shaders and cost every
//! later 1-frame `render` on an H200 about 50 ms: 264 ms against 211 ms with an empty
//! cache, for crt-geom.) A pipeline's file is named after the adapter
//! (`wgpu::util::pipeline_cache_key`: vendor and device) and a digest of what makes the
//! pipeline (its shaders' SPIR-V and target format, [`PipelineStore::entry`]), and lives
//! in the build directory of the SPIR-V cache ([`crate::validate::spirv_cache`]: same
//! place, same switches, `CG2SLANG_NO_CACHE` turns both off, the same pruning of old
//! builds). It holds a header (the format's name, the build, its name, the length) and a
//! 128-bit digest of the data after it; a file that does not match in every part is not
//! used. A pipeline the driver compiled is written as soon as it is made, only if its
//! data changed and only up to [`MAX_BYTES`].
//!
//! **Invariant:** never panics and never fails a chain: an I/O error, a damaged file or a
//! cache wgpu refuses is an empty cache. The one `unsafe` call here,
//! `create_pipeline_cache`, is handed only bytes that `PipelineCache::get_data` returned
//! for the same adapter key and build, as their digest proves (see [`read_entry`]);
//! wgpu and the driver check their own headers too. Writes are atomic (a temporary file
//! renamed into place) and touch nothing but this module's files.

use crate::reference::memo::KeyWriter;
use crate::validate::spirv_cache;
use std::path::{Path, PathBuf};

/// The first bytes of every file: the format's name and version.
const MAGIC: &[u8; 16] = b"cg2slang-vkpc\x00\x00\x02";

/// The largest entry written or read (one pipeline's data is far smaller).
pub const MAX_BYTES: usize = 32 << 20;

/// Where a device's pipelines are kept: the directory, the build and the adapter key.
pub struct PipelineStore {
    dir: PathBuf,
    build: u128,
    /// `wgpu::util::pipeline_cache_key` of the adapter: ASCII letters, digits and `_`.
    adapter: String,
}

impl PipelineStore {
    /// The store of `device` on the adapter `info`; `None` when the cache is off or the
    /// device lacks `PIPELINE_CACHE`.
    pub fn open(device: &wgpu::Device, info: &wgpu::AdapterInfo) -> Option<PipelineStore> {
        let (dir, build) = spirv_cache::place()?;
        PipelineStore::open_in(device, info, dir, build)
    }

    /// [`PipelineStore::open`] with the files in `dir`, for the build `build`.
    pub fn open_in(device: &wgpu::Device, info: &wgpu::AdapterInfo, dir: &Path, build: u128) -> Option<PipelineStore> {
        if !device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            return None;
        }
        let adapter = wgpu::util::pipeline_cache_key(info)?;
        if !adapter.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        Some(PipelineStore { dir: dir.to_path_buf(), build, adapter })
    }

    /// The cache to make the pipeline `pipeline` with (a digest of what makes it),
    /// filled from its file when there is one; `None` when wgpu refuses the cache.
    pub fn entry(&self, device: &wgpu::Device, pipeline: u128) -> Option<PipelineEntry> {
        let name = format!("{}_{pipeline:032x}", self.adapter);
        let path = self.dir.join(format!("{name}.vkpc"));
        let data = read_entry(&path, self.build, &name);
        let loaded = data.as_deref().map_or(0, digest);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let desc =
            wgpu::PipelineCacheDescriptor { label: Some("cg2slang pipeline"), data: data.as_deref(), fallback: true };
        // SAFETY: `create_pipeline_cache` requires `data` to have been returned by
        // `PipelineCache::get_data` for an adapter of the same `pipeline_cache_key`.
        // `read_entry` returns only bytes whose header names this file (which begins with
        // this adapter key) and this build and whose 128-bit digest matches, and only
        // `PipelineEntry::save` writes such files, from `get_data` of a cache made here
        // for that key.
        #[allow(unsafe_code)]
        let cache = unsafe { device.create_pipeline_cache(&desc) };
        if pollster::block_on(scope.pop()).is_some() {
            return None;
        }
        Some(PipelineEntry { cache, path, build: self.build, name, loaded })
    }
}

/// One pipeline's cache and its file.
pub struct PipelineEntry {
    cache: wgpu::PipelineCache,
    path: PathBuf,
    build: u128,
    /// The file's name without `.vkpc`, recorded in its header.
    name: String,
    /// The digest of the data loaded (0 when none was): unchanged data is not written.
    loaded: u128,
}

impl PipelineEntry {
    /// The cache, for the pipeline's descriptor.
    pub fn cache(&self) -> &wgpu::PipelineCache {
        &self.cache
    }

    /// Writes the cache to its file when its data changed since it was loaded (best
    /// effort): call it once the pipeline is made.
    pub fn save(&self) {
        let Some(data) = self.cache.get_data() else { return };
        if data.is_empty() || data.len() > MAX_BYTES || digest(&data) == self.loaded {
            return;
        }
        write_entry(&self.path, self.build, &self.name, &data);
    }
}

/// The digest of a cache's data. 0 stands for "none loaded": data whose digest were 0
/// would only have one write skipped.
fn digest(data: &[u8]) -> u128 {
    let mut k = KeyWriter::new("pipeline-cache-data");
    k.u64(data.len() as u64);
    k.bytes(data);
    k.finish().0
}

/// The header of a file: everything before its data.
fn header(build: u128, key: &str, len: usize, data_digest: u128) -> Vec<u8> {
    let mut h = Vec::with_capacity(MAGIC.len() + 16 + 8 + key.len() + 8 + 16);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&build.to_le_bytes());
    h.extend_from_slice(&(key.len() as u64).to_le_bytes());
    h.extend_from_slice(key.as_bytes());
    h.extend_from_slice(&(len as u64).to_le_bytes());
    h.extend_from_slice(&data_digest.to_le_bytes());
    h
}

/// The data of the file at `path` when its header names `build` and `key`, its length
/// is the one recorded and its digest matches; `None` otherwise.
pub fn read_entry(path: &Path, build: u128, key: &str) -> Option<Vec<u8>> {
    let len = std::fs::metadata(path).ok()?.len();
    if len > (MAX_BYTES + 4096) as u64 {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let fixed = MAGIC.len() + 16 + 8 + key.len();
    let (head, rest) = bytes.split_at_checked(fixed)?;
    let (size, rest) = rest.split_first_chunk::<8>()?;
    let (recorded, data) = rest.split_first_chunk::<16>()?;
    let size = usize::try_from(u64::from_le_bytes(*size)).ok()?;
    let recorded = u128::from_le_bytes(*recorded);
    let expected = header(build, key, size, recorded);
    (head == &expected[..fixed] && data.len() == size && digest(data) == recorded).then(|| data.to_vec())
}

/// Writes `data` as the file at `path` for `build` and `key`, atomically as every entry
/// of the cache is written ([`spirv_cache::write_entry_file`]).
pub fn write_entry(path: &Path, build: u128, key: &str, data: &[u8]) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else { return };
    let mut bytes = header(build, key, data.len(), digest(data));
    bytes.extend_from_slice(data);
    spirv_cache::write_entry_file(dir, name, &bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "wgpu_pipeline_cache_vulkan_4318_8993";

    #[test]
    fn a_written_entry_reads_back_for_its_build_and_key_only() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(format!("{KEY}.vkpc"));
        assert_eq!(read_entry(&path, 3, KEY), None);
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        write_entry(&path, 3, KEY, &data);
        assert_eq!(read_entry(&path, 3, KEY), Some(data.clone()));
        assert_eq!(read_entry(&path, 4, KEY), None);
        assert_eq!(read_entry(&path, 3, "wgpu_pipeline_cache_vulkan_4318_8994"), None);
        let names = spirv_cache::file_names(dir.path());
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
    }

    #[test]
    fn a_damaged_entry_is_not_used() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(format!("{KEY}.vkpc"));
        let data: Vec<u8> = (0..300u32).map(|i| i as u8).collect();
        write_entry(&path, 9, KEY, &data);
        let good = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let data_at = good.len() - data.len();
        let mut cases = vec![good[..good.len() - 1].to_vec(), [good.clone(), vec![0]].concat(), Vec::new()];
        for at in [0, MAGIC.len(), data_at - 20, data_at - 1, data_at, good.len() - 1] {
            let mut flipped = good.clone();
            flipped[at] ^= 0x10;
            cases.push(flipped);
        }
        for bytes in cases {
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(read_entry(&path, 9, KEY), None);
        }
        std::fs::write(&path, &good).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_entry(&path, 9, KEY), Some(data));
    }
}
