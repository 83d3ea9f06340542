/// Installs the shipped seed database at startup (see issue 4; filled in by the installer work).
public enum SeedInstaller {}
