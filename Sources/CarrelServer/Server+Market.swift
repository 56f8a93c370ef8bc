import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// `carrel/market`: what a client prefills its Market details… with.
extension Server {
    func market(_ id: RequestID, _ params: MarketRequest.Params) throws(Failure) {
        let details = try workspace.marketDetails(try target(params.uri))
        reply(
            id,
            MarketRequest.Details(
                name: details.name, url: details.url, deadline: details.deadline?.description,
                readingPeriod: details.readingPeriod, fee: details.fee, simultaneous: details.simultaneous,
                notes: details.notes
            ).json)
    }
}
