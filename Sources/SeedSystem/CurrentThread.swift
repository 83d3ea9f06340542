#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the calling thread can change about itself.
public enum CurrentThread {
    /// Gives the calling thread the lowest priority (Linux: nice 19, for this thread only;
    /// Darwin: the utility quality of service), so it runs on the cores the process's other
    /// threads leave idle. A thread cannot take its priority back: only a thread of its own
    /// (one that ends with its work) calls this, never one of a pool. Best effort: whether the
    /// system agreed changes no result, only when it is ready.
    public static func yieldToOtherThreads() {
        #if canImport(Glibc)
        // Linux keeps the nice value per thread; `who` 0 is the calling thread, not its process.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #elseif canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
