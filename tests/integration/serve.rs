//! `slidedb serve` through a real server on a loopback port.
