#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(TodoCLI.run(Array(CommandLine.arguments.dropFirst())))
