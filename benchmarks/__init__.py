"""Benchmarks (``make bench``): speed and memory figures, printed, recorded in docs/benchmarks.md.

Run from the checkout as ``python -m benchmarks.<name>``; they are not part of the installed
package."""
