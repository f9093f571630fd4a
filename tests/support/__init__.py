"""Helpers the tests of several areas share (data makers, waits, the CI guard); a helper
that one area alone uses sits in that area's folder instead."""
