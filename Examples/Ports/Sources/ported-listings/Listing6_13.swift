import Foundation
import QuartzCore

/// Listing 6.13: fire from a `CAEmitterLayer` filling the container, emitting from its centre
/// one `CAEmitterCell` of sparks (150 a second, 5 s each, orange, fading 0.4 a second, 50 ± 50
/// points a second in every direction), drawn additively. `spark` stands for the book's
/// `[UIImage imageNamed:@"Spark.png"].CGImage`.
func makeFire(in containerView: CALayer, spark: CGImage) -> CAEmitterLayer {
    // create particle emitter layer
    let emitter = CAEmitterLayer()
    emitter.frame = containerView.bounds
    containerView.addSublayer(emitter)

    // configure emitter
    emitter.renderMode = .additive
    emitter.emitterPosition = CGPoint(x: emitter.frame.size.width / 2.0, y: emitter.frame.size.height / 2.0)

    // create a particle template
    let cell = CAEmitterCell()
    cell.contents = spark
    cell.birthRate = 150
    cell.lifetime = 5.0
    cell.color = CGColor(red: 1, green: 0.5, blue: 0.1, alpha: 1.0)
    cell.alphaSpeed = -0.4
    cell.velocity = 50
    cell.velocityRange = 50
    cell.emissionRange = .pi * 2.0

    // add particle template to emitter
    emitter.emitterCells = [cell]
    return emitter
}

/// `Examples/images/spark.png`, found from this file's place in the repository.
func loadSpark() throws -> CGImage {
    let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("images")
    return try CGImage(contentsOfPNGFile: images.appendingPathComponent("spark.png").path)
}
