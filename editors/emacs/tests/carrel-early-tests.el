;;; carrel-early-tests.el --- ERT tests of asking for the roots early  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-preload-tests.el, whose helpers
;; these use.  A cold open asks for the binder's roots right behind
;; `initialize', before its answer is read, so the first view waits for
;; no round trip of its own; the answer is held until the binder asks,
;; and asked for again if a change came after it.

;;; Code:

(require 'carrel-tests)
(require 'carrel-preload-tests)

(defvar carrel-test--exchanges nil
  "What went to the server and came back while exchanging, oldest first.
A request is (sent METHOD PARAMS), a reply (answer ID), a
notification from the server (came METHOD).")

(defun carrel-test--note-sent (_conn &rest message)
  "Keep the request MESSAGE that jsonrpc is about to send."
  (when (plist-get message :id)
    (setq carrel-test--exchanges
          (append carrel-test--exchanges
                  (list (list 'sent (intern (format "%s" (plist-get message :method)))
                              (plist-get message :params)))))))

(defun carrel-test--note-read (_conn message)
  "Keep MESSAGE, just read from the server."
  (setq carrel-test--exchanges
        (append carrel-test--exchanges
                (list (if (plist-get message :method)
                          (list 'came (intern (format "%s" (plist-get message :method))))
                        (list 'answer (plist-get message :id)))))))

(defmacro carrel-test--exchanging (&rest body)
  "Run BODY, keeping in `carrel-test--exchanges' what was sent and read."
  (declare (indent 0) (debug t))
  `(progn
     (setq carrel-test--exchanges nil)
     (advice-add 'jsonrpc-connection-send :before #'carrel-test--note-sent)
     (advice-add 'jsonrpc-connection-receive :before #'carrel-test--note-read)
     (unwind-protect (progn ,@body)
       (advice-remove 'jsonrpc-connection-send #'carrel-test--note-sent)
       (advice-remove 'jsonrpc-connection-receive #'carrel-test--note-read))))

(defun carrel-test--root-requests ()
  "Return how many times the roots were asked for."
  (seq-count (lambda (e) (equal e '(sent carrel/tree (:depth 1)))) carrel-test--exchanges))

(defun carrel-test--initialize-answer ()
  "Return the answer to `initialize' among the exchanges.
It is the first request, so its answer is the first read."
  (seq-find (lambda (e) (eq (car e) 'answer)) carrel-test--exchanges))

(defun carrel-test--asked-before-initialize-read ()
  "Check that the roots were asked for once, before initialize was answered."
  (let ((roots (seq-position carrel-test--exchanges '(sent carrel/tree (:depth 1))))
        (answered (seq-position carrel-test--exchanges (carrel-test--initialize-answer))))
    (should roots)
    (should answered)
    (should (< roots answered))
    (should (= 1 (carrel-test--root-requests)))))

(ert-deftest carrel-early-cold-open-asks-roots-before-initialize-answer ()
  "A cold `carrel' asks for the roots before reading initialize's answer, once."
  (carrel-test--with-preload-library
    (carrel-test--exchanging
      (carrel carrel-test--lib)
      (with-current-buffer (carrel--tree-buffer (carrel-test--preloaded))
        (carrel-test--settled)
        (should (save-excursion (goto-char (point-min)) (search-forward "Poems" nil t)))))
    (carrel-test--asked-before-initialize-read)))

(ert-deftest carrel-early-preload-asks-roots-before-initialize-answer ()
  "The preload asks for the roots before reading initialize's answer, once."
  (carrel-test--with-preload-library
    (carrel-test--exchanging
      (carrel-preload)
      (carrel-test--wait-held)
      (carrel carrel-test--lib)
      (with-current-buffer (carrel--tree-buffer (carrel-test--preloaded))
        (carrel-test--settled)))
    (carrel-test--asked-before-initialize-read)))

(defun carrel-test--start-ahead ()
  "Start the test library's server with the roots asked for ahead.
Return its connection once their answer is held."
  ;; A first start makes the project's missing standard folders, a change
  ;; of its own: made before, so that only the test's change comes.
  (let ((warming (carrel--start carrel-test--lib)))
    (accept-process-output nil 0.3)
    (carrel-shutdown warming))
  (setq carrel-test--exchanges nil)
  (let ((conn (carrel--start carrel-test--lib t)))
    (carrel-test--wait (lambda () (= 1 (carrel-test--root-requests))) "the roots asked for ahead")
    (carrel-test--wait (lambda () (>= (seq-count (lambda (e) (eq (car e) 'answer)) carrel-test--exchanges) 2))
                       "the roots answered ahead")
    conn))

(ert-deftest carrel-early-held-roots-are-what-the-binder-gets ()
  "Roots answered ahead are what opening shows, with nothing asked again."
  (carrel-test--with-preload-library
    (carrel-test--exchanging
      (let ((conn (carrel-test--start-ahead)))
        (with-current-buffer (carrel--tree-buffer conn t)
          (carrel-test--settled)
          (should (save-excursion (goto-char (point-min)) (search-forward "Poems" nil t))))))
    ;; The server's own first count may tell a change after the roots'
    ;; answer; then, and only then, they are asked for once more.
    (should (or (= 1 (carrel-test--root-requests))
                (and (= 2 (carrel-test--root-requests))
                     (carrel-test--change-before-second-roots))))))

(defun carrel-test--change-before-second-roots ()
  "Return non-nil if a change came between the roots' first answer and their second request."
  (let* ((second-roots (cl-position '(sent carrel/tree (:depth 1)) carrel-test--exchanges
                                    :test #'equal :from-end t))
         (answers (cl-loop for e in carrel-test--exchanges for i from 0
                           when (eq (car e) 'answer) collect i))
         ;; The first answer is initialize's, the second the roots'.
         (roots-answered (nth 1 answers)))
    (and second-roots roots-answered
         (cl-loop for e in (cl-subseq carrel-test--exchanges roots-answered second-roots)
                  thereis (equal e '(came carrel/didChange))))))

(ert-deftest carrel-early-change-after-answer-asks-again ()
  "A change after the roots were answered ahead makes the binder ask again."
  (carrel-test--with-preload-library
    (carrel-test--exchanging
      (let ((conn (carrel-test--start-ahead)))
        (write-region "dusk" nil (expand-file-name "Poems/Draft/Evening.md" carrel-test--lib))
        (carrel-test--wait (lambda () (member '(came carrel/didChange) carrel-test--exchanges))
                           "the change")
        (with-current-buffer (carrel--tree-buffer conn t)
          (carrel-test--settled))))
    (should (= 2 (carrel-test--root-requests)))))

(provide 'carrel-early-tests)

;;; carrel-early-tests.el ends here
