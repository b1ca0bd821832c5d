// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title LineageRegistry
/// @notice Optimistic registry of facts about pairs of pinned repositories.
///         An owner registers templates (kinds of claim) and immutable, versioned
///         policies (liveness, bond, resolver, freshness). Anyone may assert a
///         fact under a policy by posting its bond; anyone may challenge it within
///         the liveness window, directly or by relaying the challenger's EIP-712
///         signature. Unchallenged assertions settle after liveness; challenged
///         ones are resolved by the policy's resolver. No function loops.
/// @dev See docs/registry.md for the model, the factKey recipe and measured gas.
contract LineageRegistry {
    // ------------------------------------------------------------------ types

    enum Outcome {
        NONE,
        TRUE,
        FALSE,
        UNDETERMINED
    }

    enum Status {
        NONE,
        ASSERTED,
        CHALLENGED,
        RESOLVED
    }

    enum ResolutionKind {
        NONE,
        LIVENESS,
        ARBITRATION
    }

    /// @dev Immutable once registered: a new version is a new policyId.
    struct Policy {
        bytes32 family;
        uint128 bond;
        uint64 version;
        uint64 liveness;
        address resolver;
        uint64 freshness;
    }

    struct Assertion {
        uint256 factKey;
        bytes32 subjectHash;
        bytes32 manifestHash;
        address asserter;
        uint64 templateId;
        Outcome outcome;
        Status status;
        Outcome resolvedOutcome;
        ResolutionKind how;
        uint64 policyId;
        uint64 assertedAt;
        uint64 expiresAt;
        uint64 resolutionId;
        address challenger;
        uint64 challengedAt;
        address bondPayer;
        uint64 resolvedAt;
    }

    /// @dev The EIP-712 message a challenger signs (DESIGN section 4).
    struct Challenge {
        uint256 factKey;
        uint256 caseId;
        bytes32 manifestHash;
        bytes32 evidenceDigest;
        bytes32 rationaleHash;
        address challenger;
        uint256 nonce;
        uint256 deadline;
    }

    /// @dev What getFact returns: the fact's newest assertion, as it stands now.
    struct FactView {
        uint256 assertionId;
        Status status;
        Outcome outcome;
        bytes32 manifestHash;
        uint256 resolutionId;
        uint256 policyId;
        uint256 resolvedAt;
    }

    struct Resolution {
        uint256 assertionId;
        uint256 factKey;
        Outcome outcome;
        ResolutionKind how;
        uint256 resolvedAt;
    }

    // -------------------------------------------------------------- constants

    string public constant NAME = "LineageRegistry";
    string public constant VERSION = "1";
    uint256 public constant MAX_TEMPLATE_BYTES = 4096;
    uint64 public constant MAX_LIVENESS = 365 days;
    uint64 public constant MAX_FRESHNESS = 3650 days;

    bytes32 public constant CHALLENGE_TYPEHASH = keccak256(
        "Challenge(uint256 factKey,uint256 caseId,bytes32 manifestHash,bytes32 evidenceDigest,bytes32 rationaleHash,address challenger,uint256 nonce,uint256 deadline)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    /// @dev Half the secp256k1 order: signatures with a larger s are malleable twins.
    uint256 internal constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @dev bytes4(keccak256("isValidSignature(bytes32,bytes)")), ERC-1271's magic value.
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;

    bytes32 private immutable _cachedDomainSeparator;
    uint256 private immutable _cachedChainId;

    // ------------------------------------------------------------------ state

    address public owner;
    uint256 public templateCount;
    uint256 public policyCount;
    uint256 public assertionCount;
    uint256 public resolutionCount;

    mapping(uint256 templateId => bytes32 textHash) public templateHash;
    mapping(uint256 policyId => Policy) private _policies;
    mapping(bytes32 family => uint256 policyId) public latestPolicyOf;
    mapping(uint256 assertionId => Assertion) private _assertions;
    mapping(uint256 factKey => uint256 assertionId) public currentAssertionOf;
    mapping(uint256 resolutionId => uint256 assertionId) public assertionOfResolution;
    mapping(address challenger => uint256) public nonces;
    mapping(address account => uint256) public withdrawable;

    // ----------------------------------------------------------------- events

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event TemplateRegistered(uint256 indexed templateId, bytes32 indexed textHash, string text);
    event PolicyRegistered(
        uint256 indexed policyId,
        bytes32 indexed family,
        address indexed resolver,
        uint64 version,
        uint64 liveness,
        uint128 bond,
        uint64 freshness
    );
    event FactAsserted(
        uint256 indexed assertionId,
        uint256 indexed factKey,
        address indexed asserter,
        uint256 templateId,
        bytes32 subjectHash,
        Outcome outcome,
        bytes32 manifestHash,
        uint256 policyId,
        uint64 expiresAt
    );
    event AssertionChallenged(
        uint256 indexed assertionId,
        uint256 indexed factKey,
        address indexed challenger,
        uint256 caseId,
        bytes32 manifestHash,
        bytes32 evidenceDigest,
        bytes32 rationaleHash,
        address bondPayer,
        bool bySignature,
        uint256 nonce
    );
    event AssertionResolved(
        uint256 indexed assertionId,
        uint256 indexed factKey,
        uint256 indexed resolutionId,
        Outcome outcome,
        ResolutionKind how,
        address resolvedBy
    );
    event NonceInvalidated(address indexed account, uint256 nonce);
    event BondCredited(address indexed account, uint256 indexed assertionId, uint256 amount);
    event BondWithdrawn(address indexed account, uint256 amount);

    // ----------------------------------------------------------------- errors

    error NotOwner(address caller);
    error ZeroAddress();
    error TemplateTextLength(uint256 length);
    error UnknownTemplate(uint256 templateId);
    error EmptyPolicyFamily();
    error InvalidLiveness(uint64 liveness);
    error InvalidFreshness(uint64 freshness);
    error UnknownPolicy(uint256 policyId);
    error InvalidOutcome(uint8 outcome);
    error EmptyHash();
    error WrongBond(uint256 expected, uint256 sent);
    error AssertionPending(uint256 factKey, uint256 assertionId);
    error UnknownAssertion(uint256 assertionId);
    error UnknownResolution(uint256 resolutionId);
    error NotChallengeable(uint256 assertionId, Status status);
    error LivenessExpired(uint256 assertionId, uint64 expiresAt);
    error NotSettleable(uint256 assertionId, Status status);
    error LivenessNotExpired(uint256 assertionId, uint64 expiresAt);
    error NotChallenged(uint256 assertionId, Status status);
    error NotResolver(address caller, address resolver);
    error SignatureExpired(uint256 deadline);
    error InvalidNonce(address challenger, uint256 expected);
    error InvalidSignatureLength(uint256 length);
    error MalleableSignature();
    error InvalidSignatureV(uint8 v);
    error InvalidSignature();
    error WrongSigner(address recovered, address challenger);
    error InvalidContractSignature(address challenger);
    error NoActiveAssertion(uint256 factKey);
    error ManifestMismatch(bytes32 expected, bytes32 signed);
    error NothingToWithdraw();
    error WithdrawFailed();

    // ------------------------------------------------------------ constructor

    constructor() {
        owner = msg.sender;
        _cachedChainId = block.chainid;
        _cachedDomainSeparator = _buildDomainSeparator();
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    // ------------------------------------------------------------- admin role

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Registers a kind of claim. The text lives only in the event; storage keeps its hash.
    function registerTemplate(string calldata text) external onlyOwner returns (uint256 templateId) {
        uint256 length = bytes(text).length;
        if (length == 0 || length > MAX_TEMPLATE_BYTES) revert TemplateTextLength(length);
        templateId = ++templateCount;
        bytes32 textHash = keccak256(bytes(text));
        templateHash[templateId] = textHash;
        emit TemplateRegistered(templateId, textHash, text);
    }

    /// @notice Registers the next version of a policy family. Registered policies never change.
    function registerPolicy(bytes32 family, uint64 liveness, uint128 bond, address resolver, uint64 freshness)
        external
        onlyOwner
        returns (uint256 policyId)
    {
        if (family == bytes32(0)) revert EmptyPolicyFamily();
        if (liveness == 0 || liveness > MAX_LIVENESS) revert InvalidLiveness(liveness);
        if (freshness == 0 || freshness > MAX_FRESHNESS) revert InvalidFreshness(freshness);
        if (resolver == address(0)) revert ZeroAddress();
        policyId = ++policyCount;
        uint256 previous = latestPolicyOf[family];
        uint64 version = previous == 0 ? 1 : _policies[previous].version + 1;
        _policies[policyId] = Policy(family, bond, version, liveness, resolver, freshness);
        latestPolicyOf[family] = policyId;
        emit PolicyRegistered(policyId, family, resolver, version, liveness, bond, freshness);
    }

    // ------------------------------------------------------------ assertions

    /// @notice Asserts an outcome for fact (templateId, subjectHash), posting the policy's bond.
    ///         A fact has at most one unresolved assertion at a time.
    function assertFact(uint256 templateId, bytes32 subjectHash, uint8 outcome, bytes32 manifestHash, uint256 policyId)
        external
        payable
        returns (uint256 assertionId)
    {
        if (templateId == 0 || templateId > templateCount) revert UnknownTemplate(templateId);
        if (policyId == 0 || policyId > policyCount) revert UnknownPolicy(policyId);
        if (outcome == 0 || outcome > uint8(Outcome.UNDETERMINED)) revert InvalidOutcome(outcome);
        if (subjectHash == bytes32(0) || manifestHash == bytes32(0)) revert EmptyHash();
        Policy storage policy = _policies[policyId];
        if (msg.value != policy.bond) revert WrongBond(policy.bond, msg.value);

        uint256 factKey = factKeyOf(templateId, subjectHash);
        uint256 current = currentAssertionOf[factKey];
        if (current != 0 && _assertions[current].status != Status.RESOLVED) {
            revert AssertionPending(factKey, current);
        }

        assertionId = ++assertionCount;
        uint64 expiresAt = uint64(block.timestamp) + policy.liveness;
        Assertion storage a = _assertions[assertionId];
        a.factKey = factKey;
        a.subjectHash = subjectHash;
        a.manifestHash = manifestHash;
        a.asserter = msg.sender;
        a.templateId = uint64(templateId);
        a.outcome = Outcome(outcome);
        a.status = Status.ASSERTED;
        a.policyId = uint64(policyId);
        a.assertedAt = uint64(block.timestamp);
        a.expiresAt = expiresAt;
        currentAssertionOf[factKey] = assertionId;

        emit FactAsserted(
            assertionId, factKey, msg.sender, templateId, subjectHash, Outcome(outcome), manifestHash, policyId, expiresAt
        );
    }

    /// @notice Challenges an assertion within its liveness window, posting an equal bond.
    function challenge(uint256 assertionId, uint256 caseId, bytes32 evidenceDigest, bytes32 rationaleHash)
        external
        payable
    {
        Assertion storage a = _existing(assertionId);
        _challenge(assertionId, a, msg.sender, caseId, evidenceDigest, rationaleHash, false, 0);
    }

    /// @notice Challenges on behalf of a challenger who signed the EIP-712 Challenge message.
    ///         Anyone may relay; the relayer posts the bond and receives the challenge side's payout.
    ///         The signed manifestHash must be the one of the fact's current assertion.
    ///         An account without code must sign with its key (65-byte r,s,v; low s; v 27/28);
    ///         an account with code (smart wallet) is asked through ERC-1271 isValidSignature.
    function challengeWithSig(Challenge calldata c, bytes calldata signature) external payable {
        if (block.timestamp > c.deadline) revert SignatureExpired(c.deadline);
        if (c.challenger == address(0)) revert ZeroAddress();
        uint256 expected = nonces[c.challenger];
        if (c.nonce != expected) revert InvalidNonce(c.challenger, expected);
        bytes32 digest = challengeDigest(c);
        if (c.challenger.code.length == 0) {
            address signer = _recover(digest, signature);
            if (signer != c.challenger) revert WrongSigner(signer, c.challenger);
        } else if (!_validContractSignature(c.challenger, digest, signature)) {
            revert InvalidContractSignature(c.challenger);
        }
        nonces[c.challenger] = expected + 1;

        uint256 assertionId = currentAssertionOf[c.factKey];
        if (assertionId == 0) revert NoActiveAssertion(c.factKey);
        Assertion storage a = _assertions[assertionId];
        if (a.manifestHash != c.manifestHash) revert ManifestMismatch(a.manifestHash, c.manifestHash);
        _challenge(assertionId, a, c.challenger, c.caseId, c.evidenceDigest, c.rationaleHash, true, c.nonce);
    }

    /// @notice Burns the caller's current nonce, voiding any signed challenge that uses it.
    function invalidateNonce() external {
        uint256 nonce = nonces[msg.sender]++;
        emit NonceInvalidated(msg.sender, nonce);
    }

    /// @notice Resolves an unchallenged assertion once its liveness has passed. Anyone may call.
    function settle(uint256 assertionId) external {
        Assertion storage a = _existing(assertionId);
        if (a.status != Status.ASSERTED) revert NotSettleable(assertionId, a.status);
        if (block.timestamp < a.expiresAt) revert LivenessNotExpired(assertionId, a.expiresAt);
        _resolve(assertionId, a, a.outcome, ResolutionKind.LIVENESS);
    }

    /// @notice The policy's resolver decides a challenged assertion.
    function resolve(uint256 assertionId, uint8 outcome) external {
        Assertion storage a = _existing(assertionId);
        address resolver = _policies[a.policyId].resolver;
        if (msg.sender != resolver) revert NotResolver(msg.sender, resolver);
        if (a.status != Status.CHALLENGED) revert NotChallenged(assertionId, a.status);
        if (outcome == 0 || outcome > uint8(Outcome.UNDETERMINED)) revert InvalidOutcome(outcome);
        _resolve(assertionId, a, Outcome(outcome), ResolutionKind.ARBITRATION);
    }

    /// @notice Pays out the caller's credited bonds (pull payments: a reverting receiver blocks no one).
    function withdraw() external {
        uint256 amount = withdrawable[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        withdrawable[msg.sender] = 0;
        emit BondWithdrawn(msg.sender, amount);
        (bool ok,) = payable(msg.sender).call{value: amount}("");
        if (!ok) revert WithdrawFailed();
    }

    // ------------------------------------------------------------------ views

    function factKeyOf(uint256 templateId, bytes32 subjectHash) public pure returns (uint256) {
        return uint256(keccak256(abi.encode(templateId, subjectHash)));
    }

    /// @notice The lineage template's subject: origin and target repositories pinned at commits.
    function lineageSubjectHash(
        string calldata originUrl,
        bytes20 originCommit,
        string calldata targetUrl,
        bytes20 targetCommit
    ) external pure returns (bytes32) {
        return keccak256(abi.encode(originUrl, originCommit, targetUrl, targetCommit));
    }

    function getFact(uint256 factKey) external view returns (FactView memory view_) {
        uint256 assertionId = currentAssertionOf[factKey];
        if (assertionId == 0) return view_;
        Assertion storage a = _assertions[assertionId];
        bool resolved = a.status == Status.RESOLVED;
        view_ = FactView({
            assertionId: assertionId,
            status: a.status,
            outcome: resolved ? a.resolvedOutcome : a.outcome,
            manifestHash: a.manifestHash,
            resolutionId: a.resolutionId,
            policyId: a.policyId,
            resolvedAt: a.resolvedAt
        });
    }

    function getAssertion(uint256 assertionId) external view returns (Assertion memory) {
        return _existing(assertionId);
    }

    function getPolicy(uint256 policyId) external view returns (Policy memory) {
        if (policyId == 0 || policyId > policyCount) revert UnknownPolicy(policyId);
        return _policies[policyId];
    }

    function getResolution(uint256 resolutionId) external view returns (Resolution memory) {
        uint256 assertionId = assertionOfResolution[resolutionId];
        if (assertionId == 0) revert UnknownResolution(resolutionId);
        Assertion storage a = _assertions[assertionId];
        return Resolution(assertionId, a.factKey, a.resolvedOutcome, a.how, a.resolvedAt);
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return block.chainid == _cachedChainId ? _cachedDomainSeparator : _buildDomainSeparator();
    }

    /// @notice The EIP-712 digest challengeWithSig verifies; off-chain tools must produce the same.
    function challengeDigest(Challenge calldata c) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                CHALLENGE_TYPEHASH,
                c.factKey,
                c.caseId,
                c.manifestHash,
                c.evidenceDigest,
                c.rationaleHash,
                c.challenger,
                c.nonce,
                c.deadline
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// @notice EIP-5267: fields 0x0f = name, version, chainId, verifyingContract.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", NAME, VERSION, block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    // --------------------------------------------------------------- internal

    function _existing(uint256 assertionId) private view returns (Assertion storage a) {
        if (assertionId == 0 || assertionId > assertionCount) revert UnknownAssertion(assertionId);
        a = _assertions[assertionId];
    }

    function _challenge(
        uint256 assertionId,
        Assertion storage a,
        address challenger,
        uint256 caseId,
        bytes32 evidenceDigest,
        bytes32 rationaleHash,
        bool bySignature,
        uint256 nonce
    ) private {
        if (a.status != Status.ASSERTED) revert NotChallengeable(assertionId, a.status);
        if (block.timestamp >= a.expiresAt) revert LivenessExpired(assertionId, a.expiresAt);
        uint256 bond = _policies[a.policyId].bond;
        if (msg.value != bond) revert WrongBond(bond, msg.value);
        a.status = Status.CHALLENGED;
        a.challenger = challenger;
        a.challengedAt = uint64(block.timestamp);
        a.bondPayer = msg.sender;
        emit AssertionChallenged(
            assertionId,
            a.factKey,
            challenger,
            caseId,
            a.manifestHash,
            evidenceDigest,
            rationaleHash,
            msg.sender,
            bySignature,
            nonce
        );
    }

    function _resolve(uint256 assertionId, Assertion storage a, Outcome outcome, ResolutionKind how) private {
        uint256 resolutionId = ++resolutionCount;
        a.status = Status.RESOLVED;
        a.resolvedOutcome = outcome;
        a.how = how;
        a.resolutionId = uint64(resolutionId);
        a.resolvedAt = uint64(block.timestamp);
        assertionOfResolution[resolutionId] = assertionId;
        emit AssertionResolved(assertionId, a.factKey, resolutionId, outcome, how, msg.sender);

        // Unchallenged: the asserter gets the bond back. Arbitrated: whoever the
        // resolver proves right takes both bonds (the challenge side's payout goes
        // to whoever posted its bond, i.e. the relayer for signed challenges).
        uint256 bond = _policies[a.policyId].bond;
        if (bond == 0) return;
        if (how == ResolutionKind.LIVENESS) {
            _credit(a.asserter, assertionId, bond);
        } else {
            _credit(outcome == a.outcome ? a.asserter : a.bondPayer, assertionId, bond * 2);
        }
    }

    function _credit(address account, uint256 assertionId, uint256 amount) private {
        withdrawable[account] += amount;
        emit BondCredited(account, assertionId, amount);
    }

    function _buildDomainSeparator() private view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(NAME)), keccak256(bytes(VERSION)), block.chainid, address(this))
        );
    }

    /// @dev ERC-1271: a read-only call (staticcall: no state change, no reentrancy) that must
    ///      return exactly the magic value isValidSignature.selector.
    function _validContractSignature(address account, bytes32 digest, bytes calldata signature) private view returns (bool) {
        (bool ok, bytes memory result) =
            account.staticcall(abi.encodeWithSelector(ERC1271_MAGIC, digest, signature));
        return ok && result.length == 32 && bytes32(result) == bytes32(ERC1271_MAGIC);
    }

    /// @dev ecrecover with the checks ecrecover lacks: 65-byte (r, s, v) only,
    ///      s in the lower half of the curve order, v in {27, 28}, no zero signer.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
        if (signature.length != 65) revert InvalidSignatureLength(signature.length);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        if (uint256(s) > HALF_ORDER) revert MalleableSignature();
        if (v != 27 && v != 28) revert InvalidSignatureV(v);
        signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
    }
}
