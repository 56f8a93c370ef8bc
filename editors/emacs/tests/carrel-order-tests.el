;;; carrel-order-tests.el --- ERT tests of moving rows up and down  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; M-p and M-n (M-<up>, M-<down>) send `carrel.reorder' before the
;; previous sibling or after the next one, and nothing at either end.

;;; Code:

(require 'carrel-tests)

(defun carrel-test--server-offers-p (command)
  "Return non-nil when the server under test lists COMMAND at initialize."
  (with-temp-buffer
    (let ((body (json-encode '((jsonrpc . "2.0") (id . 1) (method . "initialize")
                               (params (processId) (rootUri) (capabilities))))))
      (insert (format "Content-Length: %d\r\n\r\n%s" (string-bytes body) body))
      (call-process-region (point-min) (point-max) "timeout" t t nil
                           "10" (or (getenv "CARREL") "carrel") "lsp")
      (goto-char (point-min))
      (search-forward (format "\"%s\"" command) nil t))))

(defun carrel-test--commands-sent (sent command)
  "Return the arguments of each `workspace/executeCommand' of COMMAND in SENT."
  (cl-loop for (method params) in sent
           when (and (memq method '(workspace/executeCommand :workspace/executeCommand))
                     (equal (plist-get params :command) command))
           collect (aref (plist-get params :arguments) 0)))

(defun carrel-test--three-drafts ()
  "Make A.md, B.md and C.md in the Draft of a poetry project."
  (carrel-test--project "My Poems" "poetry")
  (dolist (name '("A" "B" "C")) (carrel-test--file "My Poems" "Draft" name)))

(defun carrel-test--press (key)
  "Run the command KEY is bound to in the binder; keep a refusal quiet."
  (condition-case nil
      (call-interactively (lookup-key carrel-tree-mode-map (kbd key)))
    (user-error nil)))

(defun carrel-test--draft-uri (name)
  "Return the URI of NAME in Draft."
  (carrel--path-to-uri (carrel-test--path "My Poems" "Draft" name)))

(ert-deftest carrel-test-move-up-down-send-reorder ()
  "M-p sends carrel.reorder before the previous sibling, M-n after the next."
  (carrel-test--with-library
    (carrel-test--three-drafts)
    (dolist (case '(("M-p" :before -1) ("M-n" :after 1) ("M-<up>" :before -1) ("M-<down>" :after 1)))
      (carrel-test--goto "My Poems" "Draft" "B.md")
      ;; The neighbour as shown now: a server with binder order has moved B.md already.
      (let* ((shown (seq-filter (lambda (title) (member title '("A.md" "B.md" "C.md")))
                                (carrel-test--rows)))
             (neighbour (nth (+ (cl-position "B.md" shown :test #'equal) (nth 2 case)) shown))
             (sent (carrel-test--recording (carrel-test--press (car case)))))
        (should neighbour)
        (should (equal (carrel-test--commands-sent sent "carrel.reorder")
                       (list (list :uri (carrel-test--draft-uri "B.md")
                                   (nth 1 case) (carrel-test--draft-uri neighbour)))))))))

(ert-deftest carrel-test-move-up-down-at-the-ends ()
  "At the first and last sibling, and on a permanent folder, nothing is sent."
  (carrel-test--with-library
    (carrel-test--three-drafts)
    (carrel-test--goto "My Poems" "Draft" "A.md")
    (should (equal (carrel-test--recording (carrel-test--press "M-p")) nil))
    ;; Sentences, ended as the other editors end them.
    (should (string-match-p "^“A\\.md” is already first\\.$" (carrel-test--messages)))
    (carrel-test--goto "My Poems" "Draft" "C.md")
    (should (equal (carrel-test--recording (carrel-test--press "M-n")) nil))
    (should (string-match-p "^“C\\.md” is already last\\.$" (carrel-test--messages)))
    (carrel-test--goto "My Poems" "Draft")
    (should (equal (cadr (should-error (carrel-move-up) :type 'user-error))
                   "“Draft” keeps its place: only files and your own folders move up and down."))))

(ert-deftest carrel-test-move-up-changes-the-order-shown ()
  "M-p puts the row before its previous sibling on screen; point stays on it."
  (skip-unless (carrel-test--server-offers-p "carrel.reorder"))
  (carrel-test--with-library
    (carrel-test--three-drafts)
    (carrel-test--goto "My Poems" "Draft" "C.md")
    (carrel-test--press "M-p")
    (carrel-test--wait (lambda () (equal (seq-take (member "A.md" (carrel-test--rows)) 3)
                                         '("A.md" "C.md" "B.md")))
                       "A, C, B in Draft")
    (should (equal (plist-get (carrel--node-at-point) :title) "C.md"))
    (carrel-test--press "M-n")
    (carrel-test--wait (lambda () (equal (seq-take (member "A.md" (carrel-test--rows)) 3)
                                         '("A.md" "B.md" "C.md")))
                       "A, B, C in Draft")
    (should (equal (plist-get (carrel--node-at-point) :title) "C.md"))))

(provide 'carrel-order-tests)
;;; carrel-order-tests.el ends here
