//! Sizes in bytes as both programs read and write them: `512M`, `16G`,
//! `1.5GiB` in (K, M, G and T are powers of 1024, with or without `B` or
//! `iB`, as memory is counted), `1.6 GB` out (powers of 1000, as file
//! sizes are written); and times as both read them: `500ms`, `90s`,
//! `1.5h`, `1h30m`.

use std::time::Duration;

/// What every time flag of both programs accepts, for their messages.
pub const TIME_FORMS: &str = "a time like 500ms, 90s, 5m, 1h30m or 0 (a bare number is seconds)";

/// Reads a time, as every time flag of both programs takes it: one or
/// more numbers, each with a unit (`ms`, `s`, `m`, `h`; also `sec`,
/// `min`, `hr` and their plurals), added up (`1h30m`, `2m 30s`), or one
/// bare number of seconds (`10`, `0.5`). At most a billion seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a time: write {TIME_FORMS}");
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    let mut seconds = 0.0f64;
    let mut parts = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(digits);
        let number: f64 = number.parse().map_err(|_| bad())?;
        let after = after.trim_start();
        let letters = after
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(letters);
        let scale = match unit.to_ascii_lowercase().as_str() {
            "" if parts == 0 && after.is_empty() => 1.0,
            "ms" | "msec" | "msecs" | "millis" => 1e-3,
            "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
            "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
            _ => return Err(bad()),
        };
        seconds += number * scale;
        parts += 1;
        rest = after.trim_start();
    }
    if !(seconds.is_finite() && seconds < 1e9) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Reads a size in bytes: `512M`, `4G`, `1.5G`, `16GiB`, `65536`.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad = || format!("{text:?} is not a size: write a size like 512M or 16G");
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or(unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let scale: u64 = match unit {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(bad()),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    if !(value.is_finite() && value >= 0.0) || value * scale as f64 > u64::MAX as f64 {
        return Err(bad());
    }
    Ok((value * scale as f64) as u64)
}

/// Bytes in a short human form, in powers of 1000 as file sizes are
/// written: `312 B`, `1.5 kB`, `3.4 MB`, `10.9 GB`, `2.1 TB`, `5.0 PB`,
/// `1.2 EB` and on in EB.
pub fn bytes(n: impl Into<u128>) -> String {
    let n: u128 = n.into();
    let units = [
        (1e18, "EB"),
        (1e15, "PB"),
        (1e12, "TB"),
        (1e9, "GB"),
        (1e6, "MB"),
        (1e3, "kB"),
    ];
    match units.iter().find(|&&(scale, _)| n as f64 >= scale) {
        Some(&(scale, unit)) => format!("{:.1} {unit}", n as f64 / scale),
        None => format!("{n} B"),
    }
}

/// A count in a short form: `812`, `65.5 k`, `12.3 M`, `1.23 G`.
pub fn count(n: u64) -> String {
    let x = n as f64;
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", x / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", x / 1e6),
        _ => format!("{:.2} G", x / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_in_every_unit_with_one_message() {
        for (text, ms) in [
            ("0", 0),
            ("10", 10_000),
            ("0.5", 500),
            ("500ms", 500),
            ("500 ms", 500),
            ("1.5s", 1_500),
            ("90s", 90_000),
            ("5m", 300_000),
            ("2min", 120_000),
            ("1h", 3_600_000),
            ("1h30m", 5_400_000),
            ("2m 30s", 150_000),
            ("1m500ms", 60_500),
            ("3 seconds", 3_000),
            (" 7S ", 7_000),
        ] {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_millis(ms)),
                "{text}"
            );
        }
        for text in [
            "", "ms", "-1s", "5x", "1.2.3s", "10 20", "5m10", "1e3s", "2d", "1e10",
        ] {
            assert_eq!(
                parse_duration(text),
                Err(format!("{text:?} is not a time: write {TIME_FORMS}")),
                "{text}"
            );
        }
    }

    #[test]
    fn counts_are_short() {
        assert_eq!(count(812), "812");
        assert_eq!(count(65_536), "65.5 k");
        assert_eq!(count(12_345_678), "12.3 M");
        assert_eq!(count(1_234_567_890), "1.23 G");
    }

    #[test]
    fn sizes_read_in_every_spelling_and_write_in_binary_units() {
        for (text, n) in [
            ("65536", 65536),
            ("512M", 512 << 20),
            ("16G", 16 << 30),
            ("16GB", 16 << 30),
            ("16GiB", 16 << 30),
            ("1.5 g", 3 << 29),
            ("2k", 2048),
            ("0", 0),
        ] {
            assert_eq!(parse_bytes(text), Ok(n), "{text}");
        }
        for text in ["", "G", "12Q", "-1G", "1e400"] {
            assert!(parse_bytes(text).is_err(), "{text}");
        }
        assert_eq!(bytes(312u64), "312 B");
        assert_eq!(bytes(1536u64), "1.5 kB");
        assert_eq!(bytes(10_900_000_000u64), "10.9 GB");
        assert_eq!(bytes(2_100_000_000_000u64), "2.1 TB");
        // A 5x5 search's every board: past any u64.
        assert_eq!(
            bytes(1_240_896_803_466_478_878_720_000_000u128),
            "1240896803.5 EB"
        );
    }
}
