//! Measures what opening and closing a Vulkan device costs a process, through wgpu as
//! the chain opens it (`Gpu::open`, then dropped) and through Vulkan directly (ash: an
//! instance, the physical devices, a device with one graphics queue and no extension,
//! as a minimal runtime opens it), phase by phase in wall milliseconds. Each run opens
//! once, so run it as separate processes, alternating the two, to compare start-up
//! costs (`render`'s warm start-up against librashader's). A measuring tool, never part
//! of the chain.
//!
//!   cargo run --release -p runtime-check --example device_open_cost -- wgpu|ash

#![allow(unsafe_code)] // Vulkan directly in the `ash` mode: every call is an FFI call.

use ash::vk;
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn wgpu_open() -> Result<String, String> {
    let t = Instant::now();
    let gpu = runtime_check::chain::Gpu::new().map_err(|d| d.message)?;
    let open = ms(t);
    let name = gpu.describe();
    let t = Instant::now();
    drop(gpu);
    Ok(format!("wgpu: open {open:.1} ms, close {:.1} ms ({name})", ms(t)))
}

fn ash_open() -> Result<String, String> {
    let t = Instant::now();
    // SAFETY: loading the Vulkan loader library; nothing else runs in this process.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    let loaded = ms(t);
    let t = Instant::now();
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
    // SAFETY: a valid create info; the instance is destroyed below.
    let instance = unsafe { entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) }
        .map_err(|e| format!("instance: {e}"))?;
    let made_instance = ms(t);
    let t = Instant::now();
    // SAFETY: the instance is live.
    let devices = unsafe { instance.enumerate_physical_devices() }.map_err(|e| format!("enumerate: {e}"))?;
    let pick = *devices.first().ok_or("no physical device")?;
    // SAFETY: `pick` came from this instance.
    let (props, queues) = unsafe {
        (instance.get_physical_device_properties(pick), instance.get_physical_device_queue_family_properties(pick))
    };
    let family =
        queues.iter().position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS)).ok_or("no graphics queue")?;
    let enumerated = ms(t);
    let t = Instant::now();
    let priorities = [1.0f32];
    let queue_info =
        [vk::DeviceQueueCreateInfo::default().queue_family_index(family as u32).queue_priorities(&priorities)];
    // SAFETY: a valid create info for a queue family of `pick`; destroyed below.
    let device =
        unsafe { instance.create_device(pick, &vk::DeviceCreateInfo::default().queue_create_infos(&queue_info), None) }
            .map_err(|e| format!("device: {e}"))?;
    let made_device = ms(t);
    let t = Instant::now();
    // SAFETY: nothing made from the device or the instance is alive.
    unsafe {
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
    let closed = ms(t);
    let name = props.device_name_as_c_str().map(|c| c.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(format!(
        "ash: loader {loaded:.1} ms, instance {made_instance:.1} ms, physical devices {enumerated:.1} ms, device {made_device:.1} ms, close {closed:.1} ms ({name})"
    ))
}

fn main() {
    let start = Instant::now();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let result = match mode.as_str() {
        "wgpu" => wgpu_open(),
        "ash" => ash_open(),
        _ => Err("usage: device_open_cost wgpu|ash".to_owned()),
    };
    match result {
        Ok(line) => println!("{line}; in all {:.1} ms", ms(start)),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
