/// The version of seedgen, recorded in every seed it builds.
public let toolVersion = "0.1.0"
