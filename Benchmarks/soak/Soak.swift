@main
enum Soak {
    static func main() {}
}
